// zend-async-conformance: a minimal streaming JSON writer.
//
//   JsonWriter json;
//   json.BeginObject();
//   json.Key("passed").Int(3);
//   json.Key("areas").BeginArray(); ... json.EndArray();
//   json.EndObject();
//   std::string text = json.str();
//
// Output is indented by two spaces per level. Strings are escaped as RFC
// 8259 requires (quote, backslash, control characters; other bytes are
// passed through, so UTF-8 stays UTF-8). The writer does not validate the
// call sequence beyond what it needs to place commas: a Key() must precede
// every value inside an object.
//
// Threading: not thread-safe; one writer per thread.

#ifndef ZAR_TOOLS_CONFORMANCE_JSON_WRITER_H_
#define ZAR_TOOLS_CONFORMANCE_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace zar::conformance {

class JsonWriter {
 public:
  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& Double(double value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();

  // The document so far, with a final newline once the outermost value is
  // closed.
  const std::string& str() const { return out_; }

  // `value` as a JSON string literal, quotes included.
  static std::string Quote(std::string_view value);

 private:
  // Before a value: the comma and newline when it is not the first in its
  // container; nothing after a Key().
  void BeforeValue();
  void Open(char bracket);
  void Close(char bracket);
  void Indent();

  std::string out_;
  // One entry per open container: whether it has a member yet.
  std::vector<bool> has_member_;
  // A Key() was written and its value is next.
  bool after_key_ = false;
};

}  // namespace zar::conformance

#endif  // ZAR_TOOLS_CONFORMANCE_JSON_WRITER_H_
