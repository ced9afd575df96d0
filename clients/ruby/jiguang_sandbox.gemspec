# frozen_string_literal: true

require_relative "lib/jiguang_sandbox/version"

Gem::Specification.new do |spec|
  spec.name = "jiguang_sandbox"
  # The server's version (package.json "version"): the helpers warn when they differ in major.minor.
  spec.version = JiguangSandbox::VERSION
  spec.summary = "Client, Minitest and RSpec helpers for jiguang-sandbox, the local JSMS/JPush emulator"
  spec.description = "Gives each test an app of its own on a jiguang-sandbox (started once per run), " \
                     "the base URLs for the official JPush/JSMS SDKs, and the control plane's calls; " \
                     "keeps a failed test's app as a file and prints its link in the web UI."
  spec.authors = ["jiguang-sandbox contributors"]
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.0"
  # Listed from the folder, not `git ls-files`: the gem builds the same from a clone, a copy or
  # Bundler's checkout of the repository (glob: "clients/ruby/*.gemspec").
  spec.files = Dir[File.join(__dir__, "lib", "**", "*.rb")].map { |f| f.delete_prefix("#{__dir__}/") } + ["README.md"]
  spec.require_paths = ["lib"]
  # net/http and json are Ruby's own; Minitest or RSpec are the test suite's.
end
