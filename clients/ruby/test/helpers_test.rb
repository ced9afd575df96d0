# frozen_string_literal: true

require_relative "test_helper"
require "open3"
require "rbconfig"
require "socket"
require "tmpdir"

# The Minitest and RSpec helpers seen from a test suite: child test runs (of suites written here)
# against the same sandbox, and a sandbox started for a run.
class HelpersTest < Minitest::Test
  include JiguangSandbox::Minitest

  LIB = File.expand_path("../lib", __dir__)
  CHECKOUT_SERVER = File.expand_path("../../../dist/server.js", __dir__)
  NO_IMAGE = "jiguang-sandbox:no-such-image-for-this-test"

  MINITEST_SUITE = <<~RUBY
    require "minitest/autorun"
    require "jiguang_sandbox/minitest"
    require "json"

    class SignUpTest < Minitest::Test
      include JiguangSandbox::Minitest

      def keep(name)
        File.write(name, JSON.generate([sandbox.app_key, sandbox.master_secret]))
      end

      def test_sign_up_texts_a_code
        keep("failed.json")
        sandbox.arm_fault(path: "/v1/codes", code: 50_019)
        assert_equal 1, sandbox.messages(mobile: "13800138000").size, "no code was texted"
      end

      def test_passes
        keep("passed.json")
        assert_operator sandbox.advance_clock(1000)["offset_ms"], :>, 0
      end

      def test_skipped
        skip "not today"
      end
    end
  RUBY

  RSPEC_SUITE = <<~RUBY
    require "jiguang_sandbox/rspec"
    require "json"

    RSpec.describe "Sign-up" do
      def keep(name)
        File.write(name, JSON.generate([sandbox.app_key, sandbox.master_secret]))
      end

      it "texts a code" do
        keep("failed.json")
        sandbox.arm_fault(path: "/v1/codes", code: 50_019)
        expect(sandbox.messages(mobile: "13800138000").size).to eq(1), "no code was texted"
      end

      it "passes" do
        keep("passed.json")
        expect(sandbox.advance_clock(1000)["offset_ms"]).to be > 0
      end

      it "is pending" do
        pending "not today"
        sandbox.arm_fault(path: "/v1/codes", code: 50_019)
        raise "not yet"
      end

      it "never asks for an app" do
        expect(1).to eq(1)
      end
    end
  RUBY

  def setup
    @dir = Dir.mktmpdir("jiguang-sandbox-ruby-")
  end

  def teardown
    FileUtils.rm_rf(@dir)
  end

  # A child run in @dir: ruby (or rspec) on +args+, with this environment changed by +env+
  # (nil: unset); answers its output (standard error included) and status.
  def child(env, *args)
    Open3.capture2e(ENV.to_h.merge(env), RbConfig.ruby, *args, chdir: @dir)
  end

  def rspec_bin = Gem.bin_path("rspec-core", "rspec")

  def credentials(name) = JSON.parse(File.read(File.join(@dir, name)))

  def sandbox_url = JiguangSandbox::Sandbox.shared.url

  def reports(folder) = Dir.children(File.join(@dir, folder)).sort

  # What both helpers do when a test fails, seen from the sandbox: the failed test's app kept with
  # its fault, the passed test's removed.
  def assert_kept_and_removed(output, exported)
    key, secret = credentials("failed.json")
    assert_includes output, "web UI: #{sandbox_url}/_sandbox/ui/?app=#{key}"
    assert_includes output, "app #{key} exported to #{exported}"
    document = JSON.parse(File.read(exported))
    assert_equal ["jiguang-sandbox/app", key], document.values_at("format", "app_key")
    assert_equal [["/v1/codes", 50_019]], document["faults"].map { |f| f.values_at("path", "code") }
    assert_equal [50_019], JiguangSandbox::SandboxApp.new(sandbox_url, key, secret).faults.map { |f| f["code"] }
    passed = JiguangSandbox::SandboxApp.new(sandbox_url, *credentials("passed.json"))
    assert_equal 0, passed.clock["offset_ms"] # a new app: the clock the test moved went with the old one
  end

  def test_a_failing_minitest_exports_its_app_and_prints_its_link
    File.write(File.join(@dir, "sign_up_test.rb"), MINITEST_SUITE)
    output, status = child({ "JIGUANG_SANDBOX_URL" => sandbox_url, "JIGUANG_SANDBOX_REPORTS" => nil },
                           "-I", LIB, "sign_up_test.rb")
    refute status.success?, output
    assert_includes output, "3 runs, 2 assertions, 1 failures, 0 errors, 1 skips"
    exported = File.join(@dir, "test/reports/jiguang-sandbox/SignUpTest__test_sign_up_texts_a_code.json")
    assert_kept_and_removed(output, exported)
    assert_equal ["SignUpTest__test_sign_up_texts_a_code.json"], reports("test/reports/jiguang-sandbox") # not the skip
  end

  def test_a_failing_rspec_example_exports_its_app_and_prints_its_link
    File.write(File.join(@dir, "sign_up_spec.rb"), RSPEC_SUITE)
    output, status = child({ "JIGUANG_SANDBOX_URL" => sandbox_url, "JIGUANG_SANDBOX_REPORTS" => nil },
                           rspec_bin, "-I", LIB, "sign_up_spec.rb")
    refute status.success?, output
    assert_includes output, "4 examples, 1 failure, 1 pending"
    exported = File.join(@dir, "spec/reports/jiguang-sandbox/sign_up_spec__Sign-up_texts_a_code.json")
    assert_kept_and_removed(output, exported)
    # The link is in the failure's own report too (extra_failure_lines), and nothing for the pending.
    key, = credentials("failed.json")
    assert_match(%r{Failures:.*no code was texted\n\n\s+app #{key} exported to .*\n\s+web UI: \S+\?app=#{key}\n}m, output)
    assert_equal ["sign_up_spec__Sign-up_texts_a_code.json"], reports("spec/reports/jiguang-sandbox")
  end

  def test_jiguang_sandbox_reports_names_the_folder_and_every_app_is_exported
    File.write(File.join(@dir, "two_apps_test.rb"), <<~RUBY)
      require "minitest/autorun"
      require "jiguang_sandbox/minitest"

      class TwoAppsTest < Minitest::Test
        include JiguangSandbox::Minitest

        def test_two_apps
          assert_equal new_sandbox_app.app_key, sandbox.app_key
        end
      end
    RUBY
    output, = child({ "JIGUANG_SANDBOX_URL" => sandbox_url, "JIGUANG_SANDBOX_REPORTS" => "kept" },
                    "-I", LIB, "two_apps_test.rb")
    assert_equal ["TwoAppsTest__test_two_apps-1.json", "TwoAppsTest__test_two_apps-2.json"], reports("kept")
    assert_equal 2, output.scan(%r{web UI: \S+/_sandbox/ui/\?app=[0-9a-f]{24}}).size
  end

  def test_a_sandbox_started_for_the_run_is_stopped_at_its_end
    command = ENV["JIGUANG_SANDBOX_COMMAND"].to_s.empty? ? "node #{CHECKOUT_SERVER}" : ENV["JIGUANG_SANDBOX_COMMAND"]
    File.write(File.join(@dir, "started_test.rb"), <<~RUBY)
      require "minitest/autorun"
      require "jiguang_sandbox/minitest"
      require "json"

      class StartedTest < Minitest::Test
        include JiguangSandbox::Minitest

        def test_started
          started = JiguangSandbox::Sandbox.shared
          File.write("sandbox.json", JSON.generate([started.url, started.how]))
          assert_equal sandbox.app_key, sandbox.app["app_key"]
        end
      end
    RUBY
    # the process, even where Docker has an image
    output, status = child({ "JIGUANG_SANDBOX_URL" => nil, "JIGUANG_SANDBOX_COMMAND" => command, "JIGUANG_SANDBOX_IMAGE" => NO_IMAGE },
                           "-I", LIB, "started_test.rb")
    assert status.success?, output
    url, how = credentials("sandbox.json")
    assert_equal "#{command} --port 0 --host 127.0.0.1 --db :memory:", how
    uri = URI(url)
    assert_raises(Errno::ECONNREFUSED) { TCPSocket.new(uri.host, uri.port).close }
  end

  def test_a_sandbox_that_cannot_start_says_why
    script = File.join(@dir, "broken.rb")
    File.write(script, "puts \"boom: \#{ARGV.join(' ')}\"\nexit 3\n")
    failed = assert_raises(JiguangSandbox::SandboxError) do
      JiguangSandbox::Sandbox.start({ "JIGUANG_SANDBOX_COMMAND" => "#{RbConfig.ruby} #{script}",
                                      "JIGUANG_SANDBOX_IMAGE" => NO_IMAGE, "PATH" => ENV["PATH"] }, startup_timeout: 30)
    end
    assert_includes failed.message, "exited with 3 before it was ready"
    assert_includes failed.message, "boom: --port 0 --host 127.0.0.1 --db :memory:"
  end

  def test_a_server_of_another_major_minor_is_warned_about
    shared = JiguangSandbox::Sandbox.shared
    assert_nil shared.version_mismatch
    assert_equal "the sandbox at #{shared.url} is version #{shared.info['version']}, this client 9.9.0: calls may differ",
                 shared.version_mismatch("9.9.0")
    package = JSON.parse(File.read(File.expand_path("../../../package.json", __dir__)))
    assert_equal package["version"], JiguangSandbox::VERSION
  end
end
