// zend-async-conformance: which ABI area each behaviour belongs to.
//
// A behaviour is one GoogleTest test of the conformance suites, named
// "Suite.Test" (a parameterised one "Prefix/Suite.Test/N"). The table in
// areas.cc maps it to exactly one area: an entry names a whole suite
// ("PoolWaitingTest") or one test ("PoolCApiTest.HealthcheckWithCHandlers");
// a test entry wins over its suite's entry. A behaviour no entry names is
// unmapped, which the runner reports as an error (and its ctest test
// fails), so a new suite cannot slip into the report unclassified.
//
// Threading: immutable data; safe from any thread.

#ifndef ZAR_TOOLS_CONFORMANCE_AREAS_H_
#define ZAR_TOOLS_CONFORMANCE_AREAS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zar::conformance {

// The areas, in report order: "registration", "lifecycle", "events and
// callbacks", "waker", "scheduler", "reactor", "pool", "circuit breaker",
// "healthcheck", "PDO pool".
const std::vector<std::string_view>& AreaNames();

// The area `name` spells, compared case-insensitively with '-' and '_'
// read as spaces ("circuit-breaker", "pdo_pool"); nullopt when none.
std::optional<std::string_view> FindArea(std::string_view name);

// The area of the behaviour `suite`.`test` (GoogleTest's names, with a
// parameterised test's instantiation prefix and index allowed); nullopt
// when the table names neither the test nor its suite.
std::optional<std::string_view> AreaOf(std::string_view suite,
                                       std::string_view test);

// What is wrong with the table, given every behaviour linked in
// (`behaviours`, "Suite.Test" full names): an entry that names no behaviour
// (left behind by a renamed or removed test) or that appears twice. Empty
// when the table is sound.
std::vector<std::string> TableProblems(
    const std::vector<std::string>& behaviours);

}  // namespace zar::conformance

#endif  // ZAR_TOOLS_CONFORMANCE_AREAS_H_
