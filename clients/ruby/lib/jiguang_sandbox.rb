# frozen_string_literal: true

# A client of jiguang-sandbox's control plane, on net/http. For a test suite:
# require "jiguang_sandbox/minitest" (include JiguangSandbox::Minitest) or
# require "jiguang_sandbox/rspec" (the +sandbox+ helper in every example).
require_relative "jiguang_sandbox/version"
require_relative "jiguang_sandbox/errors"
require_relative "jiguang_sandbox/app"
require_relative "jiguang_sandbox/sandbox"
require_relative "jiguang_sandbox/reports"
