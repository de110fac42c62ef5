// The pool model checked against the pool under test (the "pool model"
// area of the conformance runner; docs/conformance.md, "Pool model").
//
// Runs ZAR_POOL_MODEL_SEQUENCES seeded random sequences (default 10,000;
// seeds ZAR_POOL_MODEL_FIRST_SEED, +1, ...; default 1) of up to
// ZAR_POOL_MODEL_LENGTH operations (default 24) on a ZEND_ASYNC_NEW_POOL
// pool and on the model in lockstep (pool_model_driver.h). The first
// failing sequence is shrunk and reported with its seed; ZAR_POOL_MODEL_SEED
// replays that one seed (and prints its operations);
// ZAR_POOL_MODEL_HEALTHCHECK=0 leaves the healthcheck out of every pool.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "tests/pool/support/pool_test.h"
#include "tests/pool_model/pool_model_driver.h"

namespace zar::pool_model {
namespace {

// A positive integer from the environment, or `fallback`.
uint64_t FromEnvironment(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (*end != '\0') {
    ADD_FAILURE() << name << "=" << text << " is not a number";
    return fallback;
  }
  return value;
}

class PoolModelTest : public zar::pool_testing::PoolTest {};

constexpr uint64_t kDefaultSequences = 10000;

// The least each coverage counter must reach per kDefaultSequences
// sequences: about a third of what seeds 1..10000 reach, so that a change
// that starves one kind of event fails, and an unlucky seed range does not.
struct CoverageFloor {
  const char* name;
  uint64_t Coverage::*counter;
  uint64_t least;
};
constexpr CoverageFloor kCoverageFloors[] = {
    {"releases", &Coverage::releases, 5500},
    {"rejected-releases", &Coverage::rejected_releases, 1100},
    {"parked", &Coverage::parked, 2500},
    {"served-after-wait", &Coverage::served_after_wait, 1000},
    {"failed-waiters", &Coverage::failed_waiters, 1500},
    {"closed-waiters", &Coverage::closed_waiters, 850},
    {"cancelled-waiters", &Coverage::cancelled_waiters, 350},
    {"timeouts", &Coverage::timeouts, 160},
    {"unavailable", &Coverage::unavailable, 1100},
    {"factory-failures", &Coverage::factory_failures, 700},
    {"stale-rejections", &Coverage::stale_rejections, 450},
    {"ticks", &Coverage::ticks, 90},
    {"gated", &Coverage::gated, 600},
    {"failed-gates", &Coverage::failed_gates, 75},
};

TEST_F(PoolModelTest, RandomSequencesMatchTheModel) {
  const char* replay = std::getenv("ZAR_POOL_MODEL_SEED");
  const bool replaying = replay != nullptr && *replay != '\0';
  const uint64_t first = replaying
                             ? FromEnvironment("ZAR_POOL_MODEL_SEED", 1)
                             : FromEnvironment("ZAR_POOL_MODEL_FIRST_SEED", 1);
  const uint64_t count = replaying ? 1
                                   : FromEnvironment("ZAR_POOL_MODEL_SEQUENCES",
                                                     kDefaultSequences);
  const int length =
      static_cast<int>(FromEnvironment("ZAR_POOL_MODEL_LENGTH", 24));
  ASSERT_GT(length, 0) << "ZAR_POOL_MODEL_LENGTH must be at least 1";
  const bool healthcheck =
      FromEnvironment("ZAR_POOL_MODEL_HEALTHCHECK", 1) != 0;

  const auto start = std::chrono::steady_clock::now();
  uint64_t ran = 0;
  bool failed = false;
  EXPECT_TRUE(RunMain([&] {
    for (uint64_t seed = first; seed < first + count; seed++) {
      const Sequence sequence = Generate(seed, length, healthcheck);
      if (replaying) std::printf("%s", Describe(sequence).c_str());
      const std::optional<std::string> failure = RunSequence(sequence);
      ran++;
      if (!failure) continue;
      failed = true;
      const Sequence shrunk = Shrink(sequence);
      const std::optional<std::string> shrunk_failure = RunSequence(shrunk);
      ADD_FAILURE() << "the pool differs from the model, seed " << seed
                    << " (replay: ZAR_POOL_MODEL_SEED=" << seed
                    << " ZAR_POOL_MODEL_LENGTH=" << length
                    << (healthcheck ? "" : " ZAR_POOL_MODEL_HEALTHCHECK=0")
                    << ")\n"
                    << *failure << "shrunk from " << sequence.ops.size()
                    << " to " << shrunk.ops.size() << " ops:\n"
                    << Describe(shrunk)
                    << (shrunk_failure ? *shrunk_failure : std::string());
      return;
    }
  }));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf(
      "pool model: %llu sequences (seeds %llu..%llu, up to %d ops) in "
      "%.2f s\n",
      static_cast<unsigned long long>(ran),
      static_cast<unsigned long long>(first),
      static_cast<unsigned long long>(first + count - 1), length, seconds);
  const Coverage& c = CoverageSoFar();
  std::printf("  %llu ops; coverage:", static_cast<unsigned long long>(c.ops));
  for (const CoverageFloor& floor : kCoverageFloors) {
    std::printf(" %s %llu", floor.name,
                static_cast<unsigned long long>(c.*floor.counter));
  }
  std::printf("\n");
  if (failed) return;
  EXPECT_EQ(ran, count);
  // The default run (and the long one) must exercise every kind of event
  // often: a generator or driver change that starves one fails here.
  if (replaying || count < kDefaultSequences) return;
  for (const CoverageFloor& floor : kCoverageFloors) {
    if (floor.counter == &Coverage::ticks && !healthcheck) continue;
    EXPECT_GE(c.*floor.counter * kDefaultSequences / count, floor.least)
        << floor.name << " per " << kDefaultSequences << " sequences";
  }
}

}  // namespace
}  // namespace zar::pool_model
