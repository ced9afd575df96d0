# frozen_string_literal: true

# The RSpec helper's own specs, on this checkout's lib/ (ci.sh installs the gem separately).
$LOAD_PATH.unshift File.expand_path("../lib", __dir__)
require "jiguang_sandbox/rspec"
require_relative "support/vendor"
