# frozen_string_literal: true

require "base64"
require "json"
require "net/http"
require "securerandom"
require "time"
require "uri"
require_relative "errors"

module JiguangSandbox
  # A list's items (newest first, each a Hash as the wire has it), and +next_after+: the seq to
  # pass as +after:+ next time to get only what is newer.
  class Page < Array
    attr_reader :next_after

    def initialize(items, next_after)
      super(items)
      @next_after = next_after
    end
  end

  # One app of a sandbox: its credentials, the base URLs an official SDK needs, and the control
  # plane's (/_sandbox) calls a test uses, on net/http. Every call sees and changes only this app
  # (docs/control-plane.md). Refusals raise SandboxError; a next_…() that sees nothing arrive in
  # time raises NothingArrived, which lists what did arrive.
  #
  # +sms_base_url+ serves /v1 (JSMS, api.sms.jpush.cn); +push_base_url+, +device_base_url+ and
  # +report_base_url+ serve /v3 (api.jpush.cn, device.jpush.cn, report.jpush.cn): all four are the
  # sandbox's URL, named so that an SDK's setup reads clearly.
  class SandboxApp
    # The server holds a wait= request for at most 30 s: a longer wait is a few requests in a row.
    MAX_WAIT_MS = 30_000
    # How long a next_…() call waits when not told, in seconds.
    DEFAULT_TIMEOUT = 5.0
    # A template's or signature's review decision.
    APPROVED = 1
    REJECTED = 2

    # Each list: its path, the key of its items in the answer, and what one item is called.
    LISTS = {
      messages: ["/_sandbox/sms/messages", "messages", "text"],
      pushes: ["/_sandbox/push/messages", "messages", "push"],
      requests: ["/_sandbox/requests", "requests", "request"],
      callbacks: ["/_sandbox/callbacks", "callbacks", "callback"],
      reports: ["/_sandbox/sms/reports", "reports", "report"],
      replies: ["/_sandbox/sms/replies", "replies", "reply"]
    }.freeze

    attr_reader :base_url, :app_key, :master_secret, :authorization

    # 24 lowercase hex digits: as the official clients require an appKey or masterSecret to look.
    def self.random_key
      SecureRandom.hex(12)
    end

    # An app of its own: a fresh random appKey and masterSecret, provisioned now.
    def self.create(base_url, **options)
      app = new(base_url, random_key, random_key, **options)
      begin
        app.app
      rescue SandboxError => e
        raise unless e.status == 401

        raise SandboxError.new(401, e.code, "#{e.message} (is AUTO_PROVISION off, or a cap reached?)", e.body)
      end
      app
    end

    def initialize(base_url, app_key, master_secret, timeout: 30.0)
      @base_url = base_url.sub(%r{/+\z}, "")
      @app_key = app_key
      @master_secret = master_secret
      @timeout = timeout
      # Basic of appKey:masterSecret: the same credentials for /v1, /v3 and /_sandbox.
      @authorization = "Basic #{Base64.strict_encode64("#{app_key}:#{master_secret}")}"
      @uri = URI(@base_url)
      @seen = {}
      @origin = 0
    end

    # JSMS (https://api.sms.jpush.cn): the SDK then calls <this>/v1/…
    def sms_base_url = @base_url
    # JPush push (https://api.jpush.cn): <this>/v3/push, /v3/schedules…
    def push_base_url = @base_url
    # JPush devices (https://device.jpush.cn): <this>/v3/devices, /v3/tags…
    def device_base_url = @base_url
    # JPush reports (https://report.jpush.cn): <this>/v3/received…
    def report_base_url = @base_url

    # The web UI opened on this app (docs/web-ui.md, links).
    def ui_url
      "#{@base_url}/_sandbox/ui/?app=#{@app_key}"
    end

    def inspect
      "#<JiguangSandbox::SandboxApp #{@base_url} app_key=#{@app_key}>"
    end

    # -- the wire -------------------------------------------------------------------------------

    # One request with the app's credentials: JSON both ways (a String body is sent as it is), a
    # refusal raised as SandboxError. Answers the parsed JSON, or the text with raw: true.
    def call(method, path, query: {}, body: nil, timeout: nil, raw: false)
      params = query.reject { |_, v| v.nil? }.map { |k, v| [k.to_s, query_value(v)] }
      target = path + (params.empty? ? "" : "?#{URI.encode_www_form(params)}")
      # A body only when there is one: net/http would send a bodiless POST as an empty form.
      request = Net::HTTPGenericRequest.new(method, !body.nil?, true, target)
      request["Authorization"] = @authorization
      request["Accept"] = "application/json"
      unless body.nil?
        request["Content-Type"] = "application/json"
        request.body = body.is_a?(String) ? body : JSON.generate(body)
      end
      answer = begin
        connection(timeout || @timeout).start { |http| http.request(request) }
      rescue SystemCallError, IOError, Timeout::Error, SocketError => e
        raise SandboxError.new(0, nil, "#{method} #{path}: no answer from #{@base_url}: #{e.message}")
      end
      text = answer.body.to_s.dup.force_encoding(Encoding::UTF_8)
      status = answer.code.to_i
      raise SandboxError.from_answer(method, path, status, text) unless (200..299).cover?(status)
      return text if raw || text.empty?

      begin
        JSON.parse(text)
      rescue JSON::ParserError
        raise SandboxError.new(status, nil, "#{method} #{path}: the answer is not JSON: #{text[0, 200]}")
      end
    end

    # -- the app -----------------------------------------------------------------------------------

    # The app's settings, balances, developer and clock (GET /_sandbox/app).
    def app = call("GET", "/_sandbox/app")

    # Changes any of the app's settings at once (PATCH /_sandbox/app); answers the new state.
    def patch_app(patch) = call("PATCH", "/_sandbox/app", body: patch)

    # Back to its first use: all it did is gone, fixtures and settings back, its clock real.
    def reset
      @seen.clear
      call("POST", "/_sandbox/reset")
    end

    # Removes the app; the next request with these credentials provisions it afresh.
    def delete_app = call("DELETE", "/_sandbox/app")

    # Everything the app holds, as one versioned document (GET /_sandbox/app/export), parsed.
    def export_app = call("GET", "/_sandbox/app/export")

    # The document as the sandbox wrote it: the exact JSON, for a file another sandbox imports.
    def export_app_json = call("GET", "/_sandbox/app/export", raw: true)

    # Makes the app hold exactly what the document (a Hash, or its JSON text) says; its own
    # credentials are kept.
    def import_app(document) = call("POST", "/_sandbox/app/import", body: document)

    # -- the clock -----------------------------------------------------------------------------------

    def clock = call("GET", "/_sandbox/clock")

    # Moves the app's clock forward by +ms+ milliseconds; answers once all that fell due on the way
    # (schedules, reports, reviews, callbacks) has run.
    def advance_clock(ms)
      call("POST", "/_sandbox/clock", body: { advance_ms: Integer(ms) })
    end

    # Moves the app's clock forward to +time+ (a Time, or ISO-8601 text; never back: 409 90053).
    def set_clock(time)
      call("POST", "/_sandbox/clock", body: { set: time.respond_to?(:iso8601) ? time.iso8601(3) : time.to_s })
    end

    # -- what the app did: the lists -----------------------------------------------------------------

    # The texts that went out, newest first. Filters as the wire takes them: mobile:, msg_id:, kind:
    # (code, voice_code, template), after:, since:, until:, limit:, wait: (ms).
    def messages(**filter) = read_list(:messages, filter)

    # What each device received of each push, newest first: registration_id:, alias:, msg_id:, after:…
    def pushes(**filter) = read_list(:pushes, filter)

    # The request journal, newest first: each /v1 and /v3 call and /_sandbox write, what it was
    # answered and, when refused, why ("reason"). Filters: method:, path: (a prefix), status:,
    # code:, msg_id:, after:, since:, until:, limit:, wait:.
    def requests(**filter) = read_list(:requests, filter)

    # The callbacks to the app's URL with their attempts, latest change first.
    def callbacks(**filter) = read_list(:callbacks, filter)

    # The delivery reports that arrived, newest first.
    def reports(**filter) = read_list(:reports, filter)

    # The uplink replies the app got, newest first.
    def replies(**filter) = read_list(:replies, filter)

    DEVICE_FILTERS = %i[platform alias tag mobile online].freeze

    # The app's push devices in their order (the four fixtures and those registered since), those
    # matching every filter given: platform:, alias:, tag:, mobile:, online:. The sandbox answers
    # them all: the filters are applied here.
    def devices(**filter)
      unknown = filter.keys - DEVICE_FILTERS
      raise ArgumentError, "devices: no filter #{unknown.join(', ')} (#{DEVICE_FILTERS.join(', ')})" unless unknown.empty?

      call("GET", "/_sandbox/push/devices")["devices"].select do |device|
        filter.all? do |key, value|
          key == :tag ? Array(device["tags"]).include?(value) : device[key.to_s] == value
        end
      end
    end

    # The latest verification code texted to +mobile+ (GET /_sandbox/sms/codes/latest), waiting up
    # to +timeout+ seconds for one (after: for one newer than a seq). None by then: NothingArrived,
    # listing the texts that did arrive.
    def latest_code(mobile, timeout: 0, **filter)
      deadline = now + timeout
      loop do
        wait = [[((deadline - now) * 1000).to_i, 0].max, MAX_WAIT_MS].min
        begin
          return held("/_sandbox/sms/codes/latest", filter.merge(mobile: mobile, wait: wait.zero? ? nil : wait))
        rescue SandboxError => e
          raise unless e.code == 90_044
        end
        next unless now >= deadline

        after = Integer(filter[:after] || 0)
        arrived = messages(after: after.zero? ? nil : after, limit: 10)
        raise NothingArrived.new("verification code", filter.merge(mobile: mobile), after, timeout,
                                 arrived.map { |item| summary("text", item) })
      end
    end

    # -- waiting for the next one ------------------------------------------------------------------

    # The app's latest seq, which it returns; from then on, next_…() calls without after: return
    # only what comes after it (until the first mark: from the app's first item).
    def mark
      # An answer with no item says the app's latest seq: nothing is older than epoch 0.
      @origin = replies(until: 0, limit: 1).next_after
      @seen.clear
      @origin
    end

    # The next text matching the filter (mobile:, kind:, msg_id:), waiting up to +timeout+ seconds
    # for it: the first after +after+, else after the last one this call returned for the same
    # filter (or mark). None in time: NothingArrived.
    def next_message(timeout: DEFAULT_TIMEOUT, after: nil, **filter) = next_item(:messages, filter, after, timeout)

    # The next push a device received matching the filter (registration_id:, alias:, msg_id:).
    def next_push(timeout: DEFAULT_TIMEOUT, after: nil, **filter) = next_item(:pushes, filter, after, timeout)

    # The next request of the journal matching the filter (a refusal: status: 403), waiting for it.
    def next_request(timeout: DEFAULT_TIMEOUT, after: nil, **filter) = next_item(:requests, filter, after, timeout)

    # The next callback matching the filter to change, waiting for it.
    def next_callback(timeout: DEFAULT_TIMEOUT, after: nil, **filter) = next_item(:callbacks, filter, after, timeout)

    # -- making the vendor fail ----------------------------------------------------------------------

    # Arms a fault (POST /_sandbox/faults): the next +times+ requests matching +method+, +path+ and
    # +match+ are answered with the vendor error +code+ (+status+, +message+), after +delay_ms+.
    def arm_fault(**fault) = call("POST", "/_sandbox/faults", body: fault)

    # The armed faults, with what remains of each.
    def faults = call("GET", "/_sandbox/faults")["faults"]

    # Disarms every fault of the app; answers how many there were.
    def clear_faults = call("DELETE", "/_sandbox/faults")["cleared"]

    # -- playing the carrier, the handsets, the devices and the reviewer ----------------------------

    # A handset replies to the app (pulled by GET /v1/reply, or called back).
    def reply(mobile, content) = call("POST", "/_sandbox/sms/replies", body: { mobile: mobile, content: content })

    # The message's delivery report gets this status (4001-4100) when it falls due.
    def set_report(msg_id, status) = call("POST", "/_sandbox/sms/reports", body: { msg_id: msg_id, status: status })

    # Decides a template's review now: APPROVED (1) or REJECTED (2, with the reviewer's words).
    def review_template(temp_id, status, refuse_reason = nil)
      call("POST", "/_sandbox/sms/templates/#{Integer(temp_id)}/review", body: { status: status, refuse_reason: refuse_reason })
    end

    # Decides a signature's review now: APPROVED (1) or REJECTED (2).
    def review_sign(sign_id, status, refuse_reason = nil)
      call("POST", "/_sandbox/sms/signs/#{Integer(sign_id)}/review", body: { status: status, refuse_reason: refuse_reason })
    end

    # A device registers as a phone app with JPush would: registration_id: (made for it unless
    # given), alias:, tags:, mobile:, online: (true).
    def register_device(platform = "android", **device)
      call("POST", "/_sandbox/push/devices", body: { platform: platform }.merge(device))
    end

    # Online: what waits for it within its time_to_live is delivered now ("delivered").
    def set_device_online(registration_id, online)
      call("PATCH", "/_sandbox/push/devices/#{escape(registration_id)}", body: { online: online })
    end

    # The device opens a push it received: counted by the statistics that report clicks.
    def click(msg_id, registration_id)
      call("POST", "/_sandbox/push/messages/#{escape(msg_id)}/clicks", body: { registration_id: registration_id })
    end

    private

    def connection(timeout)
      # A sandbox on this machine is never reached through a proxy the environment names.
      loopback = %w[127.0.0.1 localhost ::1].include?(@uri.hostname)
      http = Net::HTTP.new(@uri.hostname, @uri.port, loopback ? nil : :ENV)
      http.use_ssl = @uri.scheme == "https"
      http.open_timeout = 10
      http.read_timeout = timeout
      http
    end

    def query_value(value)
      value.respond_to?(:iso8601) ? value.iso8601(3) : value.to_s
    end

    def escape(value)
      URI.encode_www_form_component(value.to_s).gsub("+", "%20")
    end

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

    # A GET that may be held by wait=: the connection outlasts the hold.
    def held(path, query)
      call("GET", path, query: query, timeout: @timeout + (query[:wait] || 0) / 1000.0)
    end

    def read_list(name, filter)
      path, key, = LISTS.fetch(name)
      page = held(path, filter)
      Page.new(page[key] || [], page["next_after"] || 0)
    end

    def next_item(name, filter, after, timeout)
      path, key, what = LISTS.fetch(name)
      given = filter.reject { |_, v| v.nil? }
      cursor = "#{name}?#{JSON.generate(given.sort.to_h)}"
      start = after || @seen.fetch(cursor, @origin)
      deadline = now + timeout
      loop do
        wait = [[((deadline - now) * 1000).to_i, 0].max, MAX_WAIT_MS].min
        item = (held(path, given.merge(after: start, limit: 1, wait: wait))[key] || []).first
        if item
          @seen[cursor] = item["seq"]
          return item
        end
        # A held request also ends early when the app is reset: then it is asked again.
        next unless now >= deadline

        arrived = call("GET", path, query: { after: start, limit: 10 })[key] || []
        raise NothingArrived.new(what, given, start, timeout, arrived.map { |i| summary(what, i) })
      end
    end

    # One line of an item, for NothingArrived's list of what did arrive.
    def summary(what, item)
      seq = item["seq"]
      case what
      when "text"
        "seq #{seq}: text #{item['msg_id']} to #{item['mobile']} (#{item['kind']}) #{item['content'].to_s.inspect}"
      when "push"
        "seq #{seq}: push #{item['msg_id']} to #{item['registration_id']} (#{item['platform']}, alias " \
          "#{item['alias'] || 'null'}) #{JSON.generate(item['notification'] || item['message'])}"
      when "request"
        answer = item["status"].to_s
        answer += " #{item['code']} #{item['message']}" unless item["code"].nil?
        answer += " because #{item['reason']}" if item["reason"]
        "seq #{seq}: #{item['method']} #{item['path']} answered #{answer}"
      else
        "seq #{seq}: #{JSON.generate(item)[0, 200]}"
      end
    end
  end
end
