using System.Collections.Generic;

namespace JiguangSandbox
{
    /// <summary>
    /// One answer of a control-plane list: its items (newest first) and <c>next_after</c>, the seq to
    /// pass as <c>after</c> to see only what is newer (docs/control-plane.md "The lists' filters").
    /// </summary>
    public sealed class Page
    {
        internal Page(JsonObject json, string key)
        {
            Json = json;
            Items = json.GetObjects(key);
            NextAfter = json.Has("next_after") ? json.GetLong("next_after") : 0;
        }

        public IList<JsonObject> Items { get; private set; }

        public long NextAfter { get; private set; }

        /// <summary>The answer as it came (a callbacks page also carries <c>callback_url</c>).</summary>
        public JsonObject Json { get; private set; }

        public int Count { get { return Items.Count; } }

        public override string ToString() { return Json.ToString(); }
    }
}
