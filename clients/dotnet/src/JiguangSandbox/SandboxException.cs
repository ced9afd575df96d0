using System;

namespace JiguangSandbox
{
    /// <summary>
    /// A refusal of the sandbox: its HTTP status and the <c>code</c> of its
    /// <c>{"error":{"code":…,"message":…}}</c> envelope (the control plane's own codes are 90001–90099,
    /// docs/control-plane.md "Errors of the control plane"). <see cref="Code"/> is null when the answer
    /// was not that envelope (a proxy's page, a cut connection); <see cref="Body"/> holds what came.
    /// </summary>
    [Serializable]
    public class SandboxException : Exception
    {
        public SandboxException(int status, int? code, string message, string body) : base(message)
        {
            Status = status;
            Code = code;
            Body = body;
        }

        public SandboxException(string message, Exception inner) : base(message, inner) { }

        /// <summary>The HTTP status (0 when no answer came).</summary>
        public int Status { get; private set; }

        /// <summary>The envelope's code (90020…), or null.</summary>
        public int? Code { get; private set; }

        /// <summary>The answer's body as received, or null.</summary>
        public string Body { get; private set; }

        internal static SandboxException FromAnswer(string method, string path, int status, string text)
        {
            try
            {
                var answer = Json.Parse(text) as JsonObject;
                var error = answer == null ? null : answer["error"] as JsonObject;
                if (error != null && error["code"] is long && error["message"] is string)
                {
                    var code = error.GetInt("code");
                    return new SandboxException(status, code, method + " " + path + ": " + code + " " + error.GetString("message"), text);
                }
            }
            catch (FormatException)
            {
                // a proxy's page, a cut answer: said as it came
            }
            return new SandboxException(status, null, (method + " " + path + ": HTTP " + status + " " + Json.Abbreviate(text, 200)).Trim(), text);
        }
    }
}
