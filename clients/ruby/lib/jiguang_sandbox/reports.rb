# frozen_string_literal: true

require "fileutils"

module JiguangSandbox
  # What the Minitest and RSpec helpers do when a test fails: each app's document exported to a
  # file named after the test, and the link that opens the app in the web UI, on standard error.
  module Reports
    # JIGUANG_SANDBOX_REPORTS, else +default+ (the test framework's report folder).
    def self.folder(default)
      given = ENV["JIGUANG_SANDBOX_REPORTS"].to_s
      given.empty? ? File.expand_path(default) : File.expand_path(given)
    end

    # Writes each app's document to <folder>/<test>.json (<test>-1.json, -2… for more than one
    # app) and prints where, with each app's link; answers the lines printed.
    def self.keep(apps, test, folder, io: $stderr)
      name = test.gsub(/[^A-Za-z0-9._-]+/, "_").gsub(/\A_+|_+\z/, "")[0, 200]
      lines = apps.each_with_index.flat_map do |app, index|
        path = File.join(folder, "#{name}#{apps.size > 1 ? "-#{index + 1}" : ''}.json")
        kept = begin
          document = app.export_app_json
          FileUtils.mkdir_p(folder)
          File.write(path, document)
          "app #{app.app_key} exported to #{path}"
        rescue SandboxError, SystemCallError => e
          "app #{app.app_key} could not be exported: #{e.message}"
        end
        [kept, "web UI: #{app.ui_url}"]
      end
      io.puts("\njiguang-sandbox, #{test} failed:\n  #{lines.join("\n  ")}")
      lines
    end

    # After a test that passed: its apps go (an app the test removed itself is no matter).
    def self.remove(apps)
      apps.each do |app|
        app.delete_app
      rescue SandboxError
        nil
      end
    end
  end
end
