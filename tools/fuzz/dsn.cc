// fuzz_dsn: PDO's data source name, "driver:name=value;name=value", as the
// constructor and the drivers read it (pdo_sim/src/pdo/pdo.c
// php_pdo_parse_data_source; PDO::__construct in pdo_dbh.c; the mock
// driver's DSN options and credential rewriting, mock_driver.cc).
//
// Input: one flag byte, the username up to '\n', the password up to '\n',
// then the DSN.
//
//   flags bits 0-1  driver: "mock:", "nopool:", or the DSN as given (a
//                   "sqlite" driver is replaced by "mock": no files)
//         bit 2     PDO::ATTR_POOL_ENABLED (max 2; bit 3: min 1)
//         bit 4     the username and password are passed (else null)
//         bit 5     the server requires this username and the password
//                   "s3cret" (else any credentials connect)
//         bit 6     a query runs (SELECT DATABASE()) on the connection
//         bit 7     PDO::ERRMODE_SILENT (else exceptions)
//
// Checks, for every input: php_pdo_parse_data_source finds what a plain
// reading of "name=value;..." finds (the last value of each name, none
// for a name without '='), and returns how many times it matched; the
// constructor and the query end in a result or a PDOException/Error,
// never a crash or a leak; no message (exception or error log) contains
// the password (the same input with another password of the same length
// says exactly the same).

#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pdo_sim/client.h"
#include "pdo_sim/mock_driver.h"
#include "tools/fuzz/fuzz_support.h"
#include "zend_async_ref/testing/exceptions.h"

extern "C" {
#include "Zend/zend.h"
}

namespace {

constexpr const char* kTarget = "fuzz_dsn";
// The password the server requires with flag bit 5.
constexpr const char* kRequired = "s3cret";

// The names the parser is asked for: the mock driver's, and two it does
// not know.
const char* const kNames[] = {"dbname", "user", "password",
                              "mutate", "host", ""};

// name -> (last value, how many times the name occurs with a value), read
// the plain way.
struct Expected {
  std::map<std::string, std::string> last;
  int matches = 0;
};

Expected ReadPlainly(std::string_view dsn) {
  Expected expected;
  size_t start = 0;
  while (start <= dsn.size()) {
    size_t end = dsn.find(';', start);
    if (end == std::string_view::npos) end = dsn.size();
    const std::string_view segment = dsn.substr(start, end - start);
    const size_t equals = segment.find('=');
    if (equals != std::string_view::npos) {
      const std::string_view name = segment.substr(0, equals);
      for (const char* known : kNames) {
        if (name == known) {
          std::string value(segment.substr(equals + 1));
          // A value is a C string: it ends at its first NUL.
          value.resize(strnlen(value.c_str(), value.size()));
          expected.last[known] = value;
          expected.matches++;
          break;
        }
      }
    }
    start = end + 1;
  }
  return expected;
}

void CheckParser(std::string_view dsn) {
  pdo_data_src_parser vars[std::size(kNames)];
  for (size_t i = 0; i < std::size(kNames); i++) {
    vars[i] = {kNames[i], nullptr, 0};
  }
  const int found = php_pdo_parse_data_source(
      dsn.data(), dsn.size(), vars, static_cast<int>(std::size(kNames)));
  const Expected expected = ReadPlainly(dsn);
  ZAR_FUZZ_CHECK(found == expected.matches,
                 "php_pdo_parse_data_source returned %d, expected %d", found,
                 expected.matches);
  for (pdo_data_src_parser& var : vars) {
    auto it = expected.last.find(var.optname);
    if (it == expected.last.end()) {
      ZAR_FUZZ_CHECK(var.optval == nullptr, "%s found where it is absent",
                     var.optname);
      continue;
    }
    ZAR_FUZZ_CHECK(var.optval != nullptr && var.freeme,
                   "%s not found where it is present", var.optname);
    ZAR_FUZZ_CHECK(it->second == var.optval, "%s = '%s', expected '%s'",
                   var.optname, var.optval, it->second.c_str());
    efree(var.optval);
  }
}

// The exception in flight (taken) and the error log since the last call,
// as one text.
std::string TakeMessages() {
  std::string messages = zar::testing::TakeExceptionText();
  for (const std::string& error : zar::testing::ErrorLog()) {
    messages += "\n" + error;
  }
  zend_mock_errors_clear();
  return messages;
}

// The same password with every byte changed (and still not NUL): a run
// with it must say exactly what the run with the password said.
std::string Other(const std::string& password) {
  std::string other = password;
  for (char& c : other) c = static_cast<char>(c == '#' ? '$' : '#');
  return other;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  zar::fuzz::Input in(data, size);
  const uint8_t flags = in.Byte();
  const std::string username(in.Until('\n'));
  // PDO keeps the password as a C string: it ends at its first NUL.
  std::string password(in.Until('\n'));
  password.resize(strnlen(password.c_str(), password.size()));
  const std::string rest(in.Rest());

  std::string dsn;
  switch (flags & 3) {
    case 0:
      dsn = "mock:" + rest;
      break;
    case 1:
      dsn = "nopool:" + rest;
      break;
    default:
      dsn = rest.rfind("sqlite", 0) == 0 ? "mock" + rest.substr(6) : rest;
      break;
  }
  const size_t colon = dsn.find(':');
  const std::string_view options =
      colon == std::string::npos ? std::string_view(dsn)
                                 : std::string_view(dsn).substr(colon + 1);
  const bool with_credentials = (flags & 0x10) != 0;

  // new PDO(...) and the query with `password`: what they said.
  auto connect = [&](const std::string& password) {
    pdo_sim::mock::Reset();
    if (flags & 0x20) pdo_sim::mock::RequireCredentials(username, kRequired);
    pdo_sim::Options attributes = {
        {PDO_ATTR_ERRMODE, zend_long{(flags & 0x80) ? PDO_ERRMODE_SILENT
                                                    : PDO_ERRMODE_EXCEPTION}}};
    if (flags & 0x04) {
      attributes.push_back({PDO_ATTR_POOL_ENABLED, true});
      attributes.push_back({PDO_ATTR_POOL_MAX, zend_long{2}});
      attributes.push_back(
          {PDO_ATTR_POOL_MIN, zend_long{(flags & 0x08) ? 1 : 0}});
    }
    pdo_sim::Pdo pdo = pdo_sim::Pdo::Open(
        dsn, attributes,
        with_credentials ? std::optional(username) : std::nullopt,
        with_credentials ? std::optional(password) : std::nullopt);
    std::string said = "new PDO: " + TakeMessages();
    if (pdo.ok() && (flags & 0x40)) {
      pdo_sim::Statement statement = pdo.Query("SELECT DATABASE()");
      if (statement.ok()) statement.FetchAll();
      said += "\nPDO::query: " + TakeMessages();
    }
    return said;
  };

  zar::fuzz::RunInRequest(kTarget, [&] {
    CheckParser(options);
    zend_mock_errors_clear();
    const std::string said = connect(password);
    // (The other password would change whether the server accepts it.)
    if (!with_credentials || password.empty() || password == kRequired) {
      return;
    }
    // The password reaches no message: another one of the same length
    // changes nothing in what is said.
    const std::string other = connect(Other(password));
    ZAR_FUZZ_CHECK(said == other,
                   "the messages depend on the password:\n%s\n---\n%s",
                   said.c_str(), other.c_str());
  });
  pdo_sim::mock::Reset();
  return 0;
}
