# frozen_string_literal: true

require_relative "test_helper"

# The base URLs used the way the official Ruby SDK uses them, with the requests it makes.
#
# The SDK is not a dependency here (no RubyGems.org): each request below is made with net/http as
# the SDK's source makes it, read from jpush/jpush-api-ruby-client (4.0.13):
# - lib/jpush/http/client.rb: `initialize_http_header` with DEFAULT_HEADERS (user-agent
#   "jpush-api-ruby-client/4.0.13", accept and content-type application/json, connection close),
#   which drops net/http's own defaults; `basic_auth(app_key, master_secret)`; `body.to_json`;
#   query parameters with URI.encode_www_form;
# - lib/jpush/pusher.rb: base_url 'https://api.jpush.cn/v3/push/' (a private method a project
#   overrides with push_base_url + '/v3/push/'); `push` first asks `cid?count=1&type=push` and
#   sends the payload with that cid;
# - lib/jpush/push/push_payload.rb: `to_hash` keys platform, audience, notification, options
#   (apns_production false merged in), cid, with the unset ones left out;
# - lib/jpush/device.rb: base_url 'https://device.jpush.cn/v3/devices/' + registration_id.
# The SDK parses every answer with JSON.parse (lib/jpush/http/response.rb): each must be JSON.
class OfficialSdkWireTest < Minitest::Test
  include JiguangSandbox::Minitest

  HEADERS = {
    "user-agent" => "jpush-api-ruby-client/4.0.13",
    "accept" => "application/json",
    "content-type" => "application/json",
    "connection" => "close"
  }.freeze

  def sdk(verb, url, params: nil, body: nil)
    uri = URI(url)
    uri.query = URI.encode_www_form(params) unless params.nil?
    request = verb.new(uri)
    request.initialize_http_header(HEADERS)
    request.basic_auth(sandbox.app_key, sandbox.master_secret)
    request.body = body.to_json unless body.nil?
    answer = Net::HTTP.start(uri.host, uri.port, nil) { |http| http.request(request) }
    [answer.code.to_i, JSON.parse(answer.body)]
  end

  def test_jpush_pushes_with_a_cid_through_push_base_url
    base = "#{sandbox.push_base_url}/v3/push/" # Pusher#base_url
    status, cids = sdk(Net::HTTP::Get, "#{base}cid", params: { count: 1, type: "push" })
    assert_equal 200, status
    cid = cids["cidlist"].first
    payload = { platform: "all", audience: "all", notification: { alert: "hello" }, options: { apns_production: false }, cid: cid }
    status, pushed = sdk(Net::HTTP::Post, base, body: payload)
    assert_equal 200, status, pushed.inspect
    assert_equal({ "alert" => "hello" }, sandbox.next_push(msg_id: pushed["msg_id"])["notification"])
    journal = sandbox.next_request(path: "/v3/push", method: "POST")
    assert_equal "jpush-api-ruby-client/4.0.13", journal["user_agent"]
    assert_includes journal["request_body"], %("cid":"#{cid}")
    # A retry with the same cid answers the first result and pushes nothing more (docs/push.md).
    delivered = sandbox.pushes.size
    assert_equal [200, pushed], sdk(Net::HTTP::Post, base, body: payload)
    assert_equal delivered, sandbox.pushes.size
  end

  def test_jpush_reads_and_tags_a_device_through_device_base_url
    base = "#{sandbox.device_base_url}/v3/devices/" # Device#base_url
    rid = sandbox.devices(platform: "android").first["registration_id"]
    status, device = sdk(Net::HTTP::Get, base + rid)
    assert_equal 200, status
    refute_includes device["tags"], "ruby"
    # Device#update(rid, tags_add: ["ruby"]): {"tags":{"add":["ruby"]}}
    status, = sdk(Net::HTTP::Post, base + rid, body: { tags: { add: ["ruby"] } })
    assert_equal 200, status
    assert_includes sandbox.devices(tag: "ruby").map { |d| d["registration_id"] }, rid
  end
end
