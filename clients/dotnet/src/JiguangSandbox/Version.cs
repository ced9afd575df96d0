namespace JiguangSandbox
{
    /// <summary>The client's version: the sandbox's own (its package.json), so a client and a server of one release agree.</summary>
    public static class Version
    {
        public const string Client = "0.1.0";

        /// <summary>"0.1" of "0.1.0": what must agree with the sandbox's.</summary>
        internal static string MajorMinor(string version)
        {
            var parts = version.Split('.');
            return parts.Length < 2 ? version : parts[0] + "." + parts[1];
        }
    }
}
