# frozen_string_literal: true

require "json"
require "net/http"
require "tempfile"
require_relative "app"
require_relative "errors"
require_relative "version"

module JiguangSandbox
  # A running sandbox, and where it comes from, once per test run (the clients' contract, issue 27):
  #
  # 1. JIGUANG_SANDBOX_URL set: that sandbox (nothing started, nothing stopped);
  # 2. else a Docker CLI that answers `docker info` and the image JIGUANG_SANDBOX_IMAGE
  #    (jiguang-sandbox:<version>, else jiguang-sandbox:latest) present locally: a container on a
  #    free port of 127.0.0.1, stopped at the end;
  # 3. else a process: JIGUANG_SANDBOX_COMMAND (split on spaces), or `npx --yes jiguang-sandbox`,
  #    with --port 0 --db :memory:; its address read from its start line, stopped at the end (and
  #    when Ruby exits).
  class Sandbox
    DEFAULT_COMMAND = "npx --yes jiguang-sandbox"
    # The server's start line, whatever LOG_FORMAT: "jiguang-sandbox listening on http://127.0.0.1:41235 (version …"
    LISTENING = %r{jiguang-sandbox listening on (https?://[^\s"()]+)}.freeze

    attr_reader :url, :how

    @shared = nil
    @failure = nil
    @lock = Mutex.new

    class << self
      # The sandbox of this test run: started on first use, stopped by stop_shared (the Minitest
      # and RSpec helpers call it at the end of the run) or when Ruby exits. A server of another
      # major.minor is warned about on standard error; one that could not start fails every test
      # that asks, with the same reason, without trying again.
      def shared
        # One per run, also for tests that run in threads (Minitest's parallelize_me!).
        @lock.synchronize do
          return @shared if @shared
          raise @failure if @failure

          begin
            @shared = start
          rescue SandboxError => e
            @failure = e
            raise
          end
          mismatch = @shared.version_mismatch
          warn "jiguang-sandbox: warning: #{mismatch}" if mismatch
          @shared
        end
      end

      def stop_shared
        @shared&.stop
      end

      # The sandbox the environment names, or one started now (see the class's doc).
      def start(env = ENV.to_h, startup_timeout: 120)
        url = env["JIGUANG_SANDBOX_URL"].to_s
        unless url.empty?
          sandbox = new(url.sub(%r{/+\z}, ""), "url")
          wait_until_ready(sandbox.url, startup_timeout)
          return sandbox
        end
        image = docker_image(env)
        return start_container(image, startup_timeout) if image

        command = (env["JIGUANG_SANDBOX_COMMAND"].to_s.strip.empty? ? DEFAULT_COMMAND : env["JIGUANG_SANDBOX_COMMAND"]).split(" ")
        start_process(command, env, startup_timeout)
      end

      # Returns once GET /_sandbox/ready answers 200; +dead+ says why to give up early.
      def wait_until_ready(url, timeout = 30, dead = nil)
        deadline = monotonic + timeout
        last = "no answer"
        uri = URI("#{url}/_sandbox/ready")
        while monotonic < deadline
          begin
            status = Net::HTTP.start(uri.hostname, uri.port, nil, open_timeout: 2, read_timeout: 2) { |http| http.get(uri.path).code.to_i }
            return if status == 200

            last = "HTTP #{status}"
          rescue SystemCallError, IOError, Timeout::Error, SocketError => e
            last = e.message
          end
          why = dead&.call
          raise SandboxError.new(0, nil, why) if why

          sleep 0.1
        end
        raise SandboxError.new(0, nil, "#{url}/_sandbox/ready did not answer 200 within #{timeout} s: #{last}")
      end

      private

      def monotonic = Process.clock_gettime(Process::CLOCK_MONOTONIC)

      def quietly(*args)
        system(*args, in: File::NULL, out: File::NULL, err: File::NULL)
      rescue SystemCallError
        false
      end

      def docker_image(env)
        return nil unless quietly("docker", "info")

        wanted = env["JIGUANG_SANDBOX_IMAGE"].to_s
        candidates = wanted.empty? ? ["jiguang-sandbox:#{VERSION}", "jiguang-sandbox:latest"] : [wanted]
        candidates.find { |image| quietly("docker", "image", "inspect", image) }
      end

      def start_container(image, startup_timeout)
        container = IO.popen(["docker", "run", "-d", "--rm", "-p", "127.0.0.1::8080", image], err: File::NULL, &:read).strip
        raise SandboxError.new(0, nil, "docker run #{image} failed") unless $?.success?

        stop = once { quietly("docker", "stop", container) }
        at_exit { stop.call }
        port = IO.popen(["docker", "port", container, "8080/tcp"], err: File::NULL, &:read).lines.first.to_s.strip
        if port.empty?
          stop.call
          raise SandboxError.new(0, nil, "docker port #{container} 8080/tcp: no port published")
        end
        sandbox = new("http://127.0.0.1:#{port.split(':').last}", "docker #{image}", stop)
        begin
          wait_until_ready(sandbox.url, startup_timeout)
        rescue SandboxError
          sandbox.stop
          raise
        end
        sandbox
      end

      def start_process(command, env, startup_timeout)
        args = command + ["--port", "0", "--host", "127.0.0.1", "--db", ":memory:"]
        line = args.join(" ")
        # Its output goes to a file, read for the start line: a pipe nobody drains would stall it.
        log = Tempfile.create(["jiguang-sandbox-", ".log"]).tap(&:close).path
        # The start line is written whatever the level; each request's line is not needed here.
        child_env = { "LOG_LEVEL" => "warn" }.merge(env)
        begin
          # A process group of its own: `npx` starts node as its child, and both are stopped together.
          pid = Process.spawn(child_env, *args, in: File::NULL, out: [log, "a"], err: [:child, :out], pgroup: true,
                                                unsetenv_others: true)
        rescue SystemCallError => e
          File.delete(log)
          raise SandboxError.new(0, nil, "could not start #{line}: #{e.message}")
        end
        exit_status = nil
        running = lambda do
          exit_status ||= Process.wait2(pid, Process::WNOHANG)&.last
          exit_status.nil?
        end
        stop = once do
          if running.call
            signal(-pid, "TERM")
            deadline = monotonic + 10
            sleep 0.02 while running.call && monotonic < deadline
            signal(-pid, "KILL") if running.call
            Process.wait(pid) if running.call
          end
          File.delete(log) if File.exist?(log)
        end
        at_exit { stop.call }
        output = lambda do
          text = File.exist?(log) ? File.read(log) : ""
          text.bytesize > 2000 ? text.byteslice(-2000, 2000) : text
        end
        dead = -> { running.call ? nil : "#{line} exited with #{exit_status.exitstatus || exit_status} before it was ready:\n#{output.call}" }

        deadline = monotonic + startup_timeout
        url = nil
        until url
          found = LISTENING.match(File.read(log))
          why = found ? nil : dead.call
          why ||= "#{line} printed no start line within #{startup_timeout} s:\n#{output.call}" if !found && monotonic > deadline
          if found
            url = found[1]
          elsif why
            stop.call # which removes its output: why holds what it said
            raise SandboxError.new(0, nil, why)
          else
            sleep 0.05
          end
        end
        sandbox = new(url, line, stop)
        begin
          wait_until_ready(sandbox.url, [deadline - monotonic, 1].max, dead)
        rescue SandboxError
          sandbox.stop
          raise
        end
        sandbox
      end

      def signal(target, name)
        Process.kill(name, target)
      rescue Errno::ESRCH, Errno::EPERM
        nil
      end

      def once(&action)
        done = false
        lambda do
          next if done

          done = true
          action.call
        end
      end
    end

    def initialize(url, how, stopper = nil)
      @url = url
      # How it came: "url", "docker <image>" or the command line started.
      @how = how
      @stopper = stopper
    end

    # Stops what start started; nothing for a sandbox named by URL.
    def stop
      stopper = @stopper
      @stopper = nil
      stopper&.call
    end

    # GET /_sandbox/info: name, version, settings that shape answers.
    def info
      uri = URI("#{@url}/_sandbox/info")
      answer = Net::HTTP.start(uri.hostname, uri.port, nil, open_timeout: 10, read_timeout: 30) { |http| http.get(uri.path) }
      raise SandboxError.from_answer("GET", "/_sandbox/info", answer.code.to_i, answer.body.to_s) unless answer.code == "200"

      JSON.parse(answer.body)
    end

    # A warning's text when the server's major.minor is not this client's (+version+), else nil.
    def version_mismatch(version = VERSION)
      server = info["version"].to_s
      return nil if server.split(".")[0, 2] == version.split(".")[0, 2]

      "the sandbox at #{@url} is version #{server}, this client #{version}: calls may differ"
    end

    # An app of its own: fresh random credentials, provisioned now.
    def new_app = SandboxApp.create(@url)

    def inspect
      "#<JiguangSandbox::Sandbox #{@url} how=#{@how.inspect}>"
    end
  end
end
