# frozen_string_literal: true

require "rspec/core"
require_relative "../jiguang_sandbox"

module JiguangSandbox
  # For RSpec: requiring this file gives every example +sandbox+, an app of its own made on first
  # use, on the run's sandbox (Sandbox.shared: JIGUANG_SANDBOX_URL's, or one started for the run and
  # stopped after it). An `after` hook reads example.exception: when the example failed, each app
  # it made is exported to spec/reports/jiguang-sandbox/ (or JIGUANG_SANDBOX_REPORTS), named after
  # the example, and the link that opens the app in the web UI is printed (and added to the
  # failure's report); the apps are kept, so that the link works. Otherwise they are removed.
  module RSpec
    # Where a failed example's documents go, under the folder the specs run in.
    REPORTS = "spec/reports/jiguang-sandbox"

    # The example's own app: credentials, base URLs for the official SDKs, the control plane.
    def sandbox
      @sandbox ||= new_sandbox_app
    end

    # Another app for the same example (exported too if it fails).
    def new_sandbox_app
      app = Sandbox.shared.new_app
      (@jiguang_sandbox_apps ||= []) << app
      app
    end

    # The after hook's work: the example's apps kept when it failed, removed otherwise.
    def self.finish(example, apps)
      return if apps.empty?

      if example.exception && !example.metadata[:pending]
        name = "#{File.basename(example.file_path.to_s, '.rb')}__#{example.full_description}"
        lines = Reports.keep(apps, name, Reports.folder(REPORTS))
        example.metadata[:extra_failure_lines] = Array(example.metadata[:extra_failure_lines]) + lines
      else
        Reports.remove(apps)
      end
    end
  end
end

RSpec.configure do |config|
  config.include JiguangSandbox::RSpec
  config.after(:each) do |example|
    apps = @jiguang_sandbox_apps || []
    @jiguang_sandbox_apps = []
    JiguangSandbox::RSpec.finish(example, apps)
  end
  config.after(:suite) { JiguangSandbox::Sandbox.stop_shared }
end
