# frozen_string_literal: true

require "minitest"
require_relative "../jiguang_sandbox"

module JiguangSandbox
  # For a Minitest::Test: `include JiguangSandbox::Minitest` gives each test an app of its own,
  # +sandbox+, on the test run's sandbox (Sandbox.shared: JIGUANG_SANDBOX_URL's, or one started for
  # the run and stopped after it). After a test that passed, its apps are removed; after one that
  # failed (a failure or an error, not a skip), each app's document is exported to
  # test/reports/jiguang-sandbox/ (or JIGUANG_SANDBOX_REPORTS), named after the test, and the link
  # that opens the app in the web UI is printed: the apps are kept, so that the link works.
  module Minitest
    # Where a failed test's documents go, under the folder the tests run in.
    REPORTS = "test/reports/jiguang-sandbox"

    # The test's own app: credentials, base URLs for the official SDKs, the control plane.
    attr_reader :sandbox

    def before_setup
      super
      @jiguang_sandbox_apps = []
      @sandbox = new_sandbox_app
    end

    # Another app for the same test (exported too if the test fails).
    def new_sandbox_app
      app = Sandbox.shared.new_app
      @jiguang_sandbox_apps << app
      app
    end

    # Minitest knows here whether the test failed: `failures` holds its failures, errors and skip.
    def after_teardown
      apps = @jiguang_sandbox_apps || []
      @jiguang_sandbox_apps = []
      if failures.any? { |failure| !failure.is_a?(::Minitest::Skip) }
        Reports.keep(apps, "#{self.class.name}__#{name}", Reports.folder(REPORTS)) unless apps.empty?
      else
        Reports.remove(apps)
      end
      super
    end
  end
end

Minitest.after_run { JiguangSandbox::Sandbox.stop_shared }
