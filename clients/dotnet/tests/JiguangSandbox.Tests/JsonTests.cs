using System;
using System.Collections.Generic;
using System.Numerics;
using NUnit.Framework;

namespace JiguangSandbox.Tests
{
    /// <summary>The JSON reader and writer, on what the control plane answers and is sent.</summary>
    [TestFixture]
    public class JsonTests
    {
        [Test]
        public void ReadsAnAnswer()
        {
            var page = Json.ParseObject(" {\"messages\":[{\"seq\":7,\"content\":\"您的验证码为123456\\u3002\\n\",\"code\":null,\"temp_para\":{\"a\":\"\\\"b\\\"\"}}],"
                + "\"next_after\":9007199254740993,\"ok\":true,\"ratio\":-1.5e2} ");
            var item = page.GetObjects("messages")[0];
            Assert.That(item.GetLong("seq"), Is.EqualTo(7));
            Assert.That(item.GetString("content"), Is.EqualTo("您的验证码为123456。\n"));
            Assert.That(item.GetString("code"), Is.Null);
            Assert.That(item.IsNull("code"), Is.True);
            Assert.That(item.GetObject("temp_para").GetString("a"), Is.EqualTo("\"b\""));
            Assert.That(page.GetLong("next_after"), Is.EqualTo(9007199254740993L)); // beyond a double's integers
            Assert.That(page.GetBool("ok"), Is.True);
            Assert.That(page.GetDouble("ratio"), Is.EqualTo(-150.0));
        }

        [Test]
        public void KeepsNumbersBeyondLong()
        {
            Assert.That(Json.Parse("123456789012345678901234567890"), Is.EqualTo(BigInteger.Parse("123456789012345678901234567890")));
        }

        [Test]
        public void WritesAnonymousObjectsAndReadsThemBack()
        {
            var text = Json.Write(new
            {
                mobile = "13800138000",
                temp_id = 1,
                temp_para = new Dictionary<string, string> { { "order", "A\"1\\\n" } },
                tags = new[] { "vip", "tag1" },
                online = false,
                gone = (string)null,
            });
            Assert.That(text, Is.EqualTo("{\"mobile\":\"13800138000\",\"temp_id\":1,\"temp_para\":{\"order\":\"A\\\"1\\\\\\n\"},"
                + "\"tags\":[\"vip\",\"tag1\"],\"online\":false,\"gone\":null}"));
            Assert.That(Json.ParseObject(text).ToString(), Is.EqualTo(text));
        }

        [Test]
        public void RefusesWhatIsNotJson()
        {
            foreach (var bad in new[] { "", "{", "{\"a\":}", "[1,]", "tru", "\"\\x\"", "{} x", "<html>" })
                Assert.Throws<FormatException>(() => Json.Parse(bad), bad);
        }
    }
}
