# frozen_string_literal: true

require "json"

module JiguangSandbox
  # A refusal of the sandbox: its HTTP status and the code of its {"error":{"code","message"}}
  # envelope (the control plane's codes are 90001-90099, docs/control-plane.md "Errors of the
  # control plane"). +code+ is nil when the answer was not that envelope (a proxy's page, a cut
  # connection: status 0); +body+ holds what came.
  class SandboxError < StandardError
    attr_reader :status, :code, :body

    def initialize(status, code, message, body = nil)
      super(message)
      @status = status
      @code = code
      @body = body
    end

    def self.from_answer(method, path, status, text)
      body = begin
        JSON.parse(text)
      rescue JSON::ParserError
        text
      end
      error = body.is_a?(Hash) && body["error"].is_a?(Hash) ? body["error"] : nil
      if error && error["code"].is_a?(Integer) && error["message"].is_a?(String)
        return new(status, error["code"], "#{method} #{path}: #{error['code']} #{error['message']}", body)
      end

      shown = text.length > 200 ? "#{text[0, 200]}…" : text
      new(status, nil, "#{method} #{path}: HTTP #{status} #{shown}".strip, body)
    end
  end

  # Nothing matching arrived within the wait of a next_…() call. Its message lists what did arrive
  # after the same seq, whatever the filter, so the test's log shows what came instead.
  class NothingArrived < StandardError
    attr_reader :what, :filter, :after, :waited, :arrived

    def initialize(what, filter, after, waited, arrived)
      @what = what
      @filter = filter
      @after = after
      @waited = waited
      @arrived = arrived
      lines = ["no #{what} matching #{JSON.generate(filter)} arrived after seq #{after} within #{waited} s;"]
      if arrived.empty?
        lines << "nothing at all arrived after seq #{after}"
      else
        lines << "what did arrive after seq #{after} (newest first):"
        lines.concat(arrived.map { |line| "  #{line}" })
      end
      super(lines.join("\n"))
    end
  end
end
