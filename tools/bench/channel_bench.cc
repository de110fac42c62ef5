// zar_channel_bench: what a channel costs, next to Boost.Fiber's channels
// doing the same work.
//
//   BM_ChannelPingPong
//       two coroutines of the reference scheduler exchange a value through
//       two unbuffered channels made by ZEND_ASYNC_NEW_CHANNEL(0, ...): one
//       sends on `ping` and receives on `pong`, the other receives on
//       `ping` and sends on `pong`. Reported per round trip.
//   BM_BoostFiberPingPong
//       the same with two Boost.Fiber fibers and two
//       boost::fibers::unbuffered_channel<int>.
//   BM_ChannelManyProducersConsumers/N
//       N producer and N consumer coroutines share one buffered channel of
//       capacity 63; each producer sends 1,000,000 / N values, each
//       consumer receives as many. The N consumers are spawned first and
//       park at once, so at every size values reach parked receivers
//       (spawned in pairs, the 10 values each producer sends at 100,000
//       would fit in the buffer and nothing would ever wait). Reported per
//       value passed (the coroutines' creation is spread over the 1,000,000
//       values). N is 10 to 100,000 (tools/bench/sweep.h).
//   BM_BoostFiberManyProducersConsumers/N
//       the same with 2N Boost.Fiber fibers (consumers first) and a
//       boost::fibers::buffered_channel<int>(64), which holds 63 values
//       (its capacity is a power of two, one slot kept empty).
// Afterwards the ratios ours/Boost.Fiber are printed (the ping-pong's target
// is <= 0.80), the buffered channel's at each size. tools/bench/go/channel is
// the Go peer. On a machine shared with other work pin the run to one CPU
// (taskset -c 1 zar_channel_bench ...).
//
//   zar_channel_bench [--benchmark_min_time=2] [--benchmark_repetitions=5]

#include <benchmark/benchmark.h>

#include <boost/fiber/all.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/extension.h"
#include "mock_zend/lifecycle.h"
#include "tools/bench/sweep.h"
#include "tools/bench/time_reporter.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace {

using zar::bench::CountPer;
using zar::bench::kSweepOperations;
using zar::bench::RoundsAt;

constexpr int kPingPongRounds = 100000;
constexpr uint32_t kCapacity = 63;
// boost::fibers::buffered_channel needs a power of two and holds one less.
constexpr size_t kBoostCapacity = 64;

struct Runtime {
  mock_zend::Engine engine{{&zar_async_module_entry}};
};

// One request whose main flow runs `prepare` and spawns one coroutine per
// entry; the seconds until every one of them has finished. `cleanup` runs
// after that, untimed.
double RunCoroutines(const std::vector<void (*)()>& entries, void (*prepare)(),
                     void (*cleanup)()) {
  mock_zend::Request request;
  const auto start = std::chrono::steady_clock::now();
  request.RunMain([&entries, prepare] {
    prepare();
    for (void (*entry)() : entries) {
      ZEND_ASYNC_SPAWN()->internal_entry = entry;
    }
  });
  const auto end = std::chrono::steady_clock::now();
  cleanup();
  return std::chrono::duration<double>(end - start).count();
}

// ---- (1) Unbuffered ping-pong
// ------------------------------------------------

zend_async_channel_t* ping = nullptr;
zend_async_channel_t* pong = nullptr;

void MakePingPong() {
  ping = ZEND_ASYNC_NEW_CHANNEL(0, false, false);
  pong = ZEND_ASYNC_NEW_CHANNEL(0, false, false);
}

void ReleasePingPong() {
  ZEND_ASYNC_EVENT_RELEASE(&ping->event);
  ZEND_ASYNC_EVENT_RELEASE(&pong->event);
  ping = pong = nullptr;
}

void Pinger() {
  zval value;
  for (int i = 0; i < kPingPongRounds; i++) {
    ZVAL_LONG(&value, i);
    ping->send(ping, &value);
    pong->receive(pong, &value, nullptr);
  }
}

void Ponger() {
  zval value;
  for (int i = 0; i < kPingPongRounds; i++) {
    ping->receive(ping, &value, nullptr);
    pong->send(pong, &value);
  }
}

void BM_ChannelPingPong(benchmark::State& state) {
  Runtime runtime;
  for (auto _ : state) {
    state.SetIterationTime(
        RunCoroutines({Pinger, Ponger}, MakePingPong, ReleasePingPong));
  }
  CountPer(state, kPingPongRounds);
}
BENCHMARK(BM_ChannelPingPong)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_BoostFiberPingPong(benchmark::State& state) {
  for (auto _ : state) {
    boost::fibers::unbuffered_channel<int> to;
    boost::fibers::unbuffered_channel<int> from;
    const auto start = std::chrono::steady_clock::now();
    boost::fibers::fiber pinger([&] {
      int value = 0;
      for (int i = 0; i < kPingPongRounds; i++) {
        to.push(i);
        from.pop(value);
      }
    });
    boost::fibers::fiber ponger([&] {
      int value = 0;
      for (int i = 0; i < kPingPongRounds; i++) {
        to.pop(value);
        from.push(value);
      }
    });
    pinger.join();
    ponger.join();
    const auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
  }
  CountPer(state, kPingPongRounds);
}
BENCHMARK(BM_BoostFiberPingPong)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// ---- (2) 1,000 producers, 1,000 consumers, one buffered channel
// ------------------------------------------------------------------

zend_async_channel_t* shared = nullptr;
// The values each producer sends and each consumer receives in the run in
// progress (RoundsAt its size).
int values_each = 0;
// The values received in the run in progress: a run that passed fewer (a
// spawn or a receive that failed) reports an error, not a time.
int64_t received = 0;

void MakeShared() { shared = ZEND_ASYNC_NEW_CHANNEL(kCapacity, false, false); }

void ReleaseShared() {
  ZEND_ASYNC_EVENT_RELEASE(&shared->event);
  shared = nullptr;
}

void Producer() {
  zval value;
  for (int i = 0; i < values_each; i++) {
    ZVAL_LONG(&value, i);
    shared->send(shared, &value);
  }
}

void Consumer() {
  zval value;
  for (int i = 0; i < values_each; i++) {
    if (shared->receive(shared, &value, nullptr)) received++;
  }
}

void BM_ChannelManyProducersConsumers(benchmark::State& state) {
  Runtime runtime;
  std::vector<void (*)()> entries;
  entries.insert(entries.end(), state.range(0), Consumer);
  entries.insert(entries.end(), state.range(0), Producer);
  values_each = RoundsAt(state.range(0));
  for (auto _ : state) {
    received = 0;
    state.SetIterationTime(RunCoroutines(entries, MakeShared, ReleaseShared));
    if (received != kSweepOperations) {
      state.SkipWithError(absl::StrFormat("%d of %d values received", received,
                                          kSweepOperations)
                              .c_str());
      break;
    }
  }
  CountPer(state, kSweepOperations);
}
BENCHMARK(BM_ChannelManyProducersConsumers)
    ->Apply(zar::bench::Sweep)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

void BM_BoostFiberManyProducersConsumers(benchmark::State& state) {
  const int64_t producers = state.range(0);
  const int each = RoundsAt(producers);
  for (auto _ : state) {
    boost::fibers::buffered_channel<int> channel(kBoostCapacity);
    const auto start = std::chrono::steady_clock::now();
    std::vector<boost::fibers::fiber> fibers;
    fibers.reserve(2 * static_cast<size_t>(producers));
    for (int64_t i = 0; i < producers; i++) {
      fibers.emplace_back([&channel, each] {
        int value = 0;
        for (int j = 0; j < each; j++) channel.pop(value);
      });
    }
    for (int64_t i = 0; i < producers; i++) {
      fibers.emplace_back([&channel, each] {
        for (int j = 0; j < each; j++) channel.push(j);
      });
    }
    for (boost::fibers::fiber& fiber : fibers) fiber.join();
    const auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
  }
  CountPer(state, kSweepOperations);
}
BENCHMARK(BM_BoostFiberManyProducersConsumers)
    ->Apply(zar::bench::Sweep)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// ---- Ratios
// ------------------------------------------------------------------

// One line: ours, Boost.Fiber's, the ratio and `target` (its text).
void PrintRatio(const zar::bench::TimeReporter& times, const char* what,
                const std::string& ours_name, const std::string& theirs_name,
                const char* target) {
  const double ours = times.Get(ours_name);
  const double theirs = times.Get(theirs_name);
  if (ours <= 0 || theirs <= 0) return;
  absl::PrintF("%s: ours %.1f ns, Boost.Fiber %.1f ns, ratio %.2f (%s)\n", what,
               ours, theirs, ours / theirs, target);
}

void PrintRatios(const zar::bench::TimeReporter& times) {
  PrintRatio(times, "unbuffered ping-pong, per round trip",
             "BM_ChannelPingPong", "BM_BoostFiberPingPong", "target <= 0.80");
  for (int64_t n : zar::bench::kSweepSizes) {
    const std::string size = zar::bench::Thousands(n);
    const std::string arg = "/" + std::to_string(n);
    PrintRatio(times,
               ("buffered channel, " + size + " producers / " + size +
                " consumers, per value")
                   .c_str(),
               "BM_ChannelManyProducersConsumers" + arg,
               "BM_BoostFiberManyProducersConsumers" + arg,
               "the target, <= 1.00, is against Go: tools/bench/run.sh");
  }
}

}  // namespace

int main(int argc, char** argv) {
  return zar::bench::RunAndPrint(argc, argv, PrintRatios);
}
