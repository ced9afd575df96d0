# frozen_string_literal: true

require "json"
require "net/http"

# The application under test's calls to /v1 and /v3: JSON with the app's credentials; answers the
# status and the parsed body, whatever the status.
module Vendor
  def self.call(app, method, path, body = nil)
    uri = URI(app.sms_base_url + path)
    request = Net::HTTPGenericRequest.new(method, !body.nil?, true, uri.request_uri)
    request["Authorization"] = app.authorization
    request["Content-Type"] = "application/json"
    request.body = JSON.generate(body) unless body.nil?
    answer = Net::HTTP.start(uri.hostname, uri.port, nil) { |http| http.request(request) }
    [answer.code.to_i, answer.body.to_s.empty? ? nil : JSON.parse(answer.body)]
  end
end
