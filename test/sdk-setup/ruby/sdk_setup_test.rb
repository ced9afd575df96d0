# docs/sdk-setup.md's Ruby snippet (written beside this file by test/sdk-setup/sdk-setup.test.ts,
# as the page shows it), run with its own app in a network where the vendor's hostnames are the
# sandbox, trusting its CA through SSL_CERT_FILE. What the SDK returns is checked here; what the
# sandbox received, by the test that runs this one.
require 'json'
require 'minitest/autorun'
require_relative 'jpush_snippet'

class SdkSetupTest < Minitest::Test
  def test_jpush_api_ruby_client
    response = push_through_the_sandbox(ENV.fetch('JIGUANG_APP_KEY'), ENV.fetch('JIGUANG_MASTER_SECRET'))
    assert_equal 200, response.http_code
    assert_match(/\A\d+\z/, response.body['msg_id'])
    File.write(ENV.fetch('SDK_SETUP_RESULT'), JSON.generate(msg_id: response.body['msg_id']))
  end
end
