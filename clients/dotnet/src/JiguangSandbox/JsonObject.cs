using System;
using System.Collections.Generic;
using System.Collections.Specialized;
using System.Globalization;
using System.Linq;

namespace JiguangSandbox
{
    /// <summary>
    /// A JSON object of an answer (an item of a list, the app, a clock…), read with typed getters:
    /// <c>code.GetString("code")</c>, <c>message.GetLong("seq")</c>. Keys are the control plane's
    /// (docs/control-plane.md), snake_case as on the wire. <see cref="ToString"/> is its JSON.
    /// </summary>
    public sealed class JsonObject
    {
        readonly OrderedDictionary fields = new OrderedDictionary(StringComparer.Ordinal);

        internal JsonObject(IEnumerable<KeyValuePair<string, object>> fields)
        {
            foreach (var field in fields) this.fields[field.Key] = field.Value;
        }

        /// <summary>The value under <paramref name="key"/> as read (string, long, double, bool, JsonObject, IList, null).</summary>
        public object this[string key]
        {
            get { return fields.Contains(key) ? fields[key] : null; }
        }

        public bool Has(string key) { return fields.Contains(key); }

        /// <summary>True when the key is absent or null.</summary>
        public bool IsNull(string key) { return this[key] == null; }

        public IEnumerable<string> Keys { get { return fields.Keys.Cast<string>(); } }

        /// <summary>A string (a number is given as its JSON); null when absent or null.</summary>
        public string GetString(string key)
        {
            var value = this[key];
            return value == null ? null : value as string ?? Json.Write(value);
        }

        public long GetLong(string key)
        {
            var value = Required(key);
            if (value is long) return (long)value;
            if (value is double) return (long)(double)value;
            throw new InvalidCastException("\"" + key + "\" is not a number: " + Json.Write(value));
        }

        public int GetInt(string key) { return checked((int)GetLong(key)); }

        public double GetDouble(string key)
        {
            var value = Required(key);
            if (value is long || value is double) return Convert.ToDouble(value, CultureInfo.InvariantCulture);
            throw new InvalidCastException("\"" + key + "\" is not a number: " + Json.Write(value));
        }

        public bool GetBool(string key)
        {
            var value = Required(key);
            if (value is bool) return (bool)value;
            throw new InvalidCastException("\"" + key + "\" is not a boolean: " + Json.Write(value));
        }

        /// <summary>A nested object; null when absent or null.</summary>
        public JsonObject GetObject(string key)
        {
            var value = this[key];
            if (value == null || value is JsonObject) return (JsonObject)value;
            throw new InvalidCastException("\"" + key + "\" is not an object: " + Json.Write(value));
        }

        /// <summary>A nested array as read; empty when absent or null.</summary>
        public IList<object> GetList(string key)
        {
            var value = this[key];
            if (value == null) return new object[0];
            var list = value as IList<object>;
            if (list != null) return list;
            throw new InvalidCastException("\"" + key + "\" is not an array: " + Json.Write(value));
        }

        /// <summary>A nested array of objects (a list's items); empty when absent or null.</summary>
        public IList<JsonObject> GetObjects(string key)
        {
            return GetList(key).Select(item =>
            {
                var json = item as JsonObject;
                if (json == null) throw new InvalidCastException("\"" + key + "\" holds a non-object");
                return json;
            }).ToList().AsReadOnly();
        }

        internal OrderedDictionary AsDictionary() { return fields; }

        public override string ToString() { return Json.Write(fields); }

        object Required(string key)
        {
            var value = this[key];
            if (value == null) throw new KeyNotFoundException("\"" + key + "\" is absent or null in " + this);
            return value;
        }
    }
}
