using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Numerics;
using System.Reflection;
using System.Text;

namespace JiguangSandbox
{
    /// <summary>
    /// JSON as the control plane speaks it (RFC 8259), read into plain values and written from them:
    /// objects are <see cref="JsonObject"/>s (keys in the order they came), arrays
    /// <c>IList&lt;object&gt;</c>, strings, <c>long</c> (<c>BigInteger</c> beyond it, <c>double</c> for
    /// a fraction or an exponent), <c>bool</c> and <c>null</c>. Written: dictionaries, sequences,
    /// strings, numbers, booleans, null, and any other object by its public properties (an anonymous
    /// object: <c>new { path = "/v1/codes", code = 50019 }</c>). Mono and every .NET read this the same
    /// way, with no dependency: System.Text.Json is not in Mono, nor System.Json in .NET.
    /// </summary>
    public static class Json
    {
        /// <summary>Reads one JSON value; anything after it but white space is an error.</summary>
        public static object Parse(string text)
        {
            var reader = new Reader(text);
            reader.Space();
            var value = reader.Value();
            reader.Space();
            if (reader.At < text.Length) throw reader.Error("unexpected text after the value");
            return value;
        }

        /// <summary>Reads a JSON object (the control plane's answers all are one).</summary>
        public static JsonObject ParseObject(string text)
        {
            var value = Parse(text) as JsonObject;
            if (value == null) throw new FormatException("not a JSON object: " + Abbreviate(text, 200));
            return value;
        }

        public static string Write(object value)
        {
            var output = new StringBuilder();
            Write(value, output);
            return output.ToString();
        }

        internal static string Abbreviate(string text, int max)
        {
            return text.Length <= max ? text : text.Substring(0, max) + "…";
        }

        static void Write(object value, StringBuilder output)
        {
            if (value == null) { output.Append("null"); return; }
            var json = value as JsonObject;
            if (json != null) { Write(json.AsDictionary(), output); return; }
            var text = value as string;
            if (text != null) { WriteString(text, output); return; }
            if (value is bool) { output.Append((bool)value ? "true" : "false"); return; }
            if (value is char || value is Enum) { WriteString(value.ToString(), output); return; }
            if (value is double || value is float || value is decimal)
            {
                var d = Convert.ToDouble(value, CultureInfo.InvariantCulture);
                if (double.IsNaN(d) || double.IsInfinity(d)) throw new ArgumentException("JSON has no " + d);
                output.Append(d.ToString("R", CultureInfo.InvariantCulture));
                return;
            }
            if (value is int || value is long || value is short || value is byte || value is uint || value is ulong
                || value is ushort || value is sbyte || value is BigInteger)
            {
                output.Append(Convert.ToString(value, CultureInfo.InvariantCulture));
                return;
            }
            if (value is DateTimeOffset) { WriteString(((DateTimeOffset)value).ToString("o", CultureInfo.InvariantCulture), output); return; }
            if (value is DateTime) { WriteString(((DateTime)value).ToString("o", CultureInfo.InvariantCulture), output); return; }
            var dictionary = value as IDictionary;
            if (dictionary != null)
            {
                output.Append('{');
                var first = true;
                foreach (DictionaryEntry entry in dictionary)
                {
                    if (!first) output.Append(',');
                    first = false;
                    WriteString(Convert.ToString(entry.Key, CultureInfo.InvariantCulture), output);
                    output.Append(':');
                    Write(entry.Value, output);
                }
                output.Append('}');
                return;
            }
            var sequence = value as IEnumerable;
            if (sequence != null)
            {
                output.Append('[');
                var first = true;
                foreach (var item in sequence)
                {
                    if (!first) output.Append(',');
                    first = false;
                    Write(item, output);
                }
                output.Append(']');
                return;
            }
            // an anonymous (or any) object: its public properties, by name
            output.Append('{');
            var firstProperty = true;
            foreach (var property in value.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance))
            {
                if (property.GetIndexParameters().Length > 0) continue;
                if (!firstProperty) output.Append(',');
                firstProperty = false;
                WriteString(property.Name, output);
                output.Append(':');
                Write(property.GetValue(value, null), output);
            }
            output.Append('}');
        }

        static void WriteString(string s, StringBuilder output)
        {
            output.Append('"');
            foreach (var c in s)
            {
                switch (c)
                {
                    case '"': output.Append("\\\""); break;
                    case '\\': output.Append("\\\\"); break;
                    case '\n': output.Append("\\n"); break;
                    case '\r': output.Append("\\r"); break;
                    case '\t': output.Append("\\t"); break;
                    default:
                        if (c < 0x20) output.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else output.Append(c);
                        break;
                }
            }
            output.Append('"');
        }

        sealed class Reader
        {
            readonly string text;
            internal int At;

            internal Reader(string text) { this.text = text; }

            internal FormatException Error(string what)
            {
                return new FormatException("JSON: " + what + " at offset " + At + " of " + Abbreviate(text, 200));
            }

            internal void Space()
            {
                while (At < text.Length && (text[At] == ' ' || text[At] == '\n' || text[At] == '\r' || text[At] == '\t')) At++;
            }

            char Peek()
            {
                if (At >= text.Length) throw Error("unexpected end");
                return text[At];
            }

            void Expect(char c)
            {
                if (Peek() != c) throw Error("expected '" + c + "'");
                At++;
            }

            internal object Value()
            {
                var c = Peek();
                switch (c)
                {
                    case '{': return Object();
                    case '[': return Array();
                    case '"': return String();
                    case 't': return Word("true", true);
                    case 'f': return Word("false", false);
                    case 'n': return Word("null", null);
                    default:
                        if (c == '-' || (c >= '0' && c <= '9')) return Number();
                        throw Error("unexpected '" + c + "'");
                }
            }

            object Word(string word, object value)
            {
                if (string.CompareOrdinal(text, At, word, 0, word.Length) != 0) throw Error("expected " + word);
                At += word.Length;
                return value;
            }

            JsonObject Object()
            {
                Expect('{');
                var fields = new List<KeyValuePair<string, object>>();
                Space();
                if (Peek() == '}') { At++; return new JsonObject(fields); }
                while (true)
                {
                    Space();
                    var key = String();
                    Space();
                    Expect(':');
                    Space();
                    fields.Add(new KeyValuePair<string, object>(key, Value()));
                    Space();
                    if (Peek() == ',') { At++; continue; }
                    Expect('}');
                    return new JsonObject(fields);
                }
            }

            IList<object> Array()
            {
                Expect('[');
                var items = new List<object>();
                Space();
                if (Peek() == ']') { At++; return items.AsReadOnly(); }
                while (true)
                {
                    Space();
                    items.Add(Value());
                    Space();
                    if (Peek() == ',') { At++; continue; }
                    Expect(']');
                    return items.AsReadOnly();
                }
            }

            string String()
            {
                Expect('"');
                var output = new StringBuilder();
                while (true)
                {
                    var c = Peek();
                    At++;
                    if (c == '"') return output.ToString();
                    if (c < 0x20) throw Error("control character in a string");
                    if (c != '\\') { output.Append(c); continue; }
                    var e = Peek();
                    At++;
                    switch (e)
                    {
                        case '"': output.Append('"'); break;
                        case '\\': output.Append('\\'); break;
                        case '/': output.Append('/'); break;
                        case 'b': output.Append('\b'); break;
                        case 'f': output.Append('\f'); break;
                        case 'n': output.Append('\n'); break;
                        case 'r': output.Append('\r'); break;
                        case 't': output.Append('\t'); break;
                        case 'u':
                            int code;
                            if (At + 4 > text.Length || !int.TryParse(text.Substring(At, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out code))
                                throw Error("bad \\u escape");
                            output.Append((char)code);
                            At += 4;
                            break;
                        default: throw Error("bad escape \\" + e);
                    }
                }
            }

            object Number()
            {
                var start = At;
                if (Peek() == '-') At++;
                var integral = true;
                while (At < text.Length)
                {
                    var c = text[At];
                    if (c >= '0' && c <= '9') At++;
                    else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') { integral = false; At++; }
                    else break;
                }
                var literal = text.Substring(start, At - start);
                if (integral)
                {
                    long small;
                    if (long.TryParse(literal, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out small)) return small;
                    BigInteger big;
                    if (BigInteger.TryParse(literal, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out big)) return big;
                }
                else
                {
                    double d;
                    if (double.TryParse(literal, NumberStyles.Float, CultureInfo.InvariantCulture, out d)) return d;
                }
                throw Error("bad number " + literal);
            }
        }
    }
}
