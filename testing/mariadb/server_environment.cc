// zend-async-ref testing: the test binary's private MariaDB server
// (server_environment.h).

#include "testing/mariadb/server_environment.h"

#include <memory>

namespace zar::testing::mariadb {
namespace {

struct Shared {
  std::unique_ptr<Server> server;
  // Set once a start was tried: what went wrong ("" when it came up).
  std::optional<std::string> start_error;
};

Shared& TheShared() {
  static auto* shared = new Shared;
  return *shared;
}

void Skip() { GTEST_SKIP() << NotInstalledMessage(); }

}  // namespace

void ServerEnvironment::TearDown() {
  Shared& shared = TheShared();
  if (shared.server == nullptr) return;
  const std::string problem = shared.server->Stop();
  shared.server.reset();
  shared.start_error.reset();
  EXPECT_EQ(problem, "");
}

Server* SharedServer() { return TheShared().server.get(); }

Server* RequireServer() {
  Shared& shared = TheShared();
  if (shared.server != nullptr) return shared.server.get();
  const std::optional<Programs> programs = FindPrograms();
  if (!programs) {
    Skip();
    return nullptr;
  }
  if (!shared.start_error) {
    std::string error;
    shared.server = Server::Start(*programs, ServerOptions{}, &error);
    shared.start_error = error;
    if (shared.server != nullptr) return shared.server.get();
  }
  ADD_FAILURE() << "the private MariaDB server did not start:\n"
                << *shared.start_error;
  return nullptr;
}

}  // namespace zar::testing::mariadb
