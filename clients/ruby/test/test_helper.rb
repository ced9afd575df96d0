# frozen_string_literal: true

# The client's own Minitest suite, on this checkout's lib/ (ci.sh installs the gem separately).
$LOAD_PATH.unshift File.expand_path("../lib", __dir__)
require "minitest/autorun"
require "jiguang_sandbox/minitest"
require_relative "../spec/support/vendor"
