# Stands in for the jpush gem 4.0.13 (jpush/jpush-api-ruby-client: lib/jpush/client.rb,
# pusher.rb, push/push_payload.rb, http/client.rb, http/response.rb): Pusher#push asks
# GET <base_url>cid?count=1&type=push for a cid unless the payload has one, then posts the
# payload's to_hash as JSON to its base_url, a private method returning the vendor's URL. Each
# request is Net::HTTP with the gem's default headers (user-agent, accept, content-type,
# connection: close) and basic auth; a non-2xx answer raises JPushResponseError.
require 'json'
require 'net/http'

module JPush
  VERSION = '4.0.13'.freeze

  module Utils
    module Exceptions
      class JPushResponseError < StandardError
        attr_reader :http_code, :error_code

        def initialize(http_code, error_code, message)
          @http_code = http_code
          @error_code = error_code
          super("#{http_code} #{error_code}: #{message}")
        end
      end
    end
  end

  module Http
    class Response
      attr_reader :http_code, :body

      def initialize(raw)
        @http_code = raw.code.to_i
        @body = JSON.parse(raw.body)
        return if raw.is_a?(Net::HTTPSuccess)

        error = @body['error'] || @body
        raise Utils::Exceptions::JPushResponseError.new(@http_code, error['code'], error['message'])
      end
    end

    class Client
      DEFAULT_HEADERS = {
        'user-agent' => "jpush-api-ruby-client/#{JPush::VERSION}",
        'accept' => 'application/json',
        'content-type' => 'application/json',
        'connection' => 'close'
      }.freeze
      VERBS = { get: Net::HTTP::Get, post: Net::HTTP::Post }.freeze

      def self.request(jpush, method, url, params: nil, body: nil)
        uri = URI(url)
        uri.query = URI.encode_www_form(params) unless params.nil?
        request = VERBS[method].new(uri)
        request.initialize_http_header(DEFAULT_HEADERS)
        request.body = body.to_json unless body.nil?
        request.basic_auth(jpush.app_key, jpush.master_secret)
        options = { use_ssl: uri.scheme == 'https', open_timeout: 20, read_timeout: 120 }
        Response.new(Net::HTTP.start(uri.host, uri.port, options) { |http| http.request(request) })
      end
    end
  end

  module Push
    class PushPayload
      attr_reader :cid

      def initialize(platform:, audience:, notification: nil, message: nil)
        @platform = platform == 'all' ? 'all' : Array(platform)
        @audience = audience
        @notification = notification.is_a?(String) ? { alert: notification } : notification
      end

      def set_cid(cid)
        @cid = cid
        self
      end

      def to_hash
        {
          platform: @platform,
          audience: @audience,
          notification: @notification,
          options: { apns_production: false },
          cid: @cid
        }.reject { |_, value| value.nil? }
      end
    end
  end

  class Pusher
    def initialize(jpush)
      @jpush = jpush
    end

    def push(push_payload)
      if push_payload.cid.nil?
        cid = Http::Client.request(@jpush, :get, base_url + 'cid', params: { count: 1, type: 'push' }).body['cidlist'].at(0)
        push_payload.set_cid(cid)
      end
      Http::Client.request(@jpush, :post, base_url, body: push_payload.to_hash)
    end

    private

    def base_url
      'https://api.jpush.cn/v3/push/'
    end
  end

  class Client
    attr_reader :app_key, :master_secret

    def initialize(app_key, master_secret)
      @app_key = app_key
      @master_secret = master_secret
    end

    def pusher
      @pusher ||= Pusher.new(self)
    end
  end
end
