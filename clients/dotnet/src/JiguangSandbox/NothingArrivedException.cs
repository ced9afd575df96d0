using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;

namespace JiguangSandbox
{
    /// <summary>
    /// Nothing matching arrived within the wait of a <c>Next…Async</c> call. Its message lists what did
    /// arrive in that list after the same seq, whatever the filter (newest first, at most 20): the text
    /// to another mobile, the push to another device, the request refused for a reason.
    /// </summary>
    [Serializable]
    public class NothingArrivedException : Exception
    {
        internal NothingArrivedException(string list, IDictionary<string, object> filter, long after, TimeSpan waited, IList<JsonObject> arrived)
            : base(Describe(list, filter, after, waited, arrived))
        {
            Arrived = arrived;
        }

        /// <summary>What arrived in the list after the same seq, whatever the filter.</summary>
        public IList<JsonObject> Arrived { get; private set; }

        static string Describe(string list, IDictionary<string, object> filter, long after, TimeSpan waited, IList<JsonObject> arrived)
        {
            var sorted = new SortedDictionary<string, object>(filter, StringComparer.Ordinal);
            var text = new StringBuilder()
                .Append("nothing in ").Append(list).Append(" matching ").Append(Json.Write(sorted))
                .Append(" after seq ").Append(after).Append(" within ").Append((long)waited.TotalMilliseconds).Append(" ms");
            if (arrived.Count == 0) return text.Append("; nothing else arrived there either").ToString();
            text.Append("; what did arrive there (newest first):");
            foreach (var item in arrived) text.Append("\n  ").Append(Json.Abbreviate(item.ToString(), 300));
            return text.ToString();
        }
    }
}
