# frozen_string_literal: true

module JiguangSandbox
  # The client's version: the server's (package.json "version").
  VERSION = "0.1.0"
end
