// zar_pdo_mysql_bench: PDO's connection pool on a real MariaDB server,
// beside sysbench's oltp_point_select on the same server and table.
//
//   BM_SysbenchPointSelect/M
//       `sysbench oltp_point_select --threads=M` for the measurement's
//       seconds: M OS threads, each with its own connection, each running
//       one point select after another. Its queries per second and its
//       latency percentiles (from its --histogram).
//   BM_PdoPoolPointSelect/N/M
//       N coroutines on this one OS thread sharing one pooled PDO
//       (PDO::ATTR_POOL_MAX = M connections, the "mysql" driver), each
//       running one point select after another for as long: prepare,
//       execute with its id, fetchColumn, the statement released (which
//       gives the slot back). While one query is in flight its coroutine
//       is parked on the connection's socket and the others run. A query's
//       latency is from its prepare to its fetch, a wait for a free slot
//       included.
//
// The same work on both sides: sysbench's table sbtest1 (10,000 rows, made
// by `sysbench oltp_point_select prepare`) and its query, "SELECT c FROM
// sbtest1 WHERE id=?" with a uniformly random id, sent as text on both
// sides (sysbench with --db-ps-mode=disable; PDO's mysql driver emulates
// prepares by default, as pdo_mysql does). One private server
// (testing/mariadb) serves the whole run.
//
// Reported per benchmark: qps, p50_us, p99_us and cpu_us, the client's CPU
// time per query (counters); afterwards a table of each benchmark's
// repetition with the median queries per second, and ours over sysbench's
// queries per second at each M (target >= 0.80). docs/pdo_pool.md, "Against
// sysbench", has the figures.
//
//   zar_pdo_mysql_bench [--benchmark_repetitions=3]
//   ZAR_PDO_BENCH_SECONDS=10 zar_pdo_mysql_bench    (5 s per measurement)
//
// Needs mariadb-server and sysbench (tools/setup.sh installs them for the
// benchmark build); without either every benchmark reports why and times
// nothing. On a machine of two CPUs or more the server runs on CPU 0 and
// both clients on CPU 1 (ZAR_PDO_BENCH_PIN=0: wherever the kernel puts
// them; see Pinned()).

#include <benchmark/benchmark.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/extension.h"
#include "mock_zend/lifecycle.h"
#include "pdo_sim/client.h"
#include "testing/mariadb/mariadb_server.h"
#include "tools/bench/time_reporter.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "ext/pdo/php_pdo.h"
}

namespace {

using Clock = std::chrono::steady_clock;
using zar::testing::mariadb::Server;

constexpr int kTableSize = 10000;
constexpr const char* kQuery = "SELECT c FROM sbtest1 WHERE id=?";

// ---- The server, the table and sysbench ------------------------------------

struct Setup {
  std::unique_ptr<Server> server;
  std::string sysbench;  // the program, "" when not installed
  std::string problem;   // why nothing can be measured, "" when all is well
};

Setup& TheSetup() {
  static Setup setup;
  return setup;
}

int Seconds() {
  const char* text = std::getenv("ZAR_PDO_BENCH_SECONDS");
  int seconds = 0;
  if (text != nullptr && absl::SimpleAtoi(text, &seconds) && seconds > 0) {
    return seconds;
  }
  return 5;
}

// CPU seconds (user and system) of `who` (RUSAGE_SELF, RUSAGE_CHILDREN:
// the children waited for) so far.
double CpuSeconds(int who) {
  rusage usage{};
  getrusage(who, &usage);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Runs `command` (a shell command line), its standard output and error
// into `*output`; true when it exited with status 0.
bool RunCommand(const std::string& command, std::string* output) {
  output->clear();
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return false;
  char chunk[4096];
  for (size_t n; (n = fread(chunk, 1, sizeof(chunk), pipe)) > 0;) {
    output->append(chunk, n);
  }
  return pclose(pipe) == 0;
}

// Pinned runs (ZAR_PDO_BENCH_PIN unset or not "0", on a machine of two
// CPUs or more): the server on CPU 0, the client on CPU 1 - this process,
// and sysbench with all its threads - so both clients get one CPU and the
// same placement against the server. Unpinned, where the kernel puts a
// client and the server threads moves a run's figures by 2x.
bool Pinned() {
  const char* text = std::getenv("ZAR_PDO_BENCH_PIN");
  return (text == nullptr || std::string(text) != "0") &&
         sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

// Puts every thread of process `pid` (0: this one) on `cpu`. New threads
// inherit it.
void PinProcess(pid_t pid, int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  const std::string tasks =
      absl::StrFormat("/proc/%s/task", pid == 0 ? "self" : std::to_string(pid));
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator(tasks, error)) {
    pid_t tid = 0;
    if (absl::SimpleAtoi(task.path().filename().string(), &tid)) {
      sched_setaffinity(tid, sizeof(set), &set);
    }
  }
}

// sysbench's options that name the server, the table and the query.
std::string SysbenchCommand(const std::string& what) {
  const Setup& setup = TheSetup();
  return absl::StrFormat(
      "%s%s oltp_point_select --mysql-socket=%s --mysql-user=%s "
      "--mysql-db=%s --tables=1 --table-size=%d --rand-type=uniform "
      "--db-ps-mode=disable %s",
      Pinned() ? "taskset -c 1 " : "", setup.sysbench,
      setup.server->socket_path(), Server::kUser, Server::kDatabase, kTableSize,
      what);
}

// Starts the server and makes sysbench's table, once.
void StartOnce() {
  static bool started = false;
  if (started) return;
  started = true;
  Setup& setup = TheSetup();
  std::string output;
  if (!RunCommand("command -v sysbench", &output)) {
    setup.problem = "sysbench is not installed (Debian's sysbench)";
    return;
  }
  setup.sysbench = std::string(absl::StripTrailingAsciiWhitespace(output));
  const std::optional<zar::testing::mariadb::Programs> programs =
      zar::testing::mariadb::FindPrograms();
  if (!programs) {
    setup.problem = zar::testing::mariadb::NotInstalledMessage();
    return;
  }
  zar::testing::mariadb::ServerOptions options;
  // The whole table in memory, as on a server that has run a while.
  options.extra_server_args = {"--innodb-buffer-pool-size=128M",
                               "--max-connections=200"};
  setup.server = Server::Start(*programs, options, &setup.problem);
  if (setup.server == nullptr) return;
  if (Pinned()) {
    PinProcess(setup.server->pid(), 0);
    PinProcess(0, 1);
  }
  if (!RunCommand(SysbenchCommand("prepare"), &output)) {
    setup.problem = "sysbench prepare failed:\n" + output;
    setup.server.reset();
  }
}

// ---- Latencies
// ---------------------------------------------------------------

struct Measured {
  double qps = 0;
  double p50_us = 0;
  double p99_us = 0;
  // The client's CPU time (user and system) per query: this process's for
  // the pool, sysbench's for sysbench. The server's is in neither.
  double cpu_us = 0;
};

// Every repetition's results by benchmark name
// ("BM_PdoPoolPointSelect/4/4"), names in the order they first ran.
std::vector<std::pair<std::string, std::vector<Measured>>>& Results() {
  static std::vector<std::pair<std::string, std::vector<Measured>>> results;
  return results;
}

// The repetition of `name` with the median queries per second (the lower
// of the two middle ones), or null when it did not run.
const Measured* Median(const std::string& name) {
  for (auto& [found, runs] : Results()) {
    if (found != name || runs.empty()) continue;
    std::sort(
        runs.begin(), runs.end(),
        [](const Measured& a, const Measured& b) { return a.qps < b.qps; });
    return &runs[(runs.size() - 1) / 2];
  }
  return nullptr;
}

// The `fraction` quantile of `latencies` (nanoseconds), in microseconds.
double QuantileUs(std::vector<uint32_t>& latencies, double fraction) {
  if (latencies.empty()) return 0;
  const size_t k = std::min(latencies.size() - 1,
                            static_cast<size_t>(fraction * latencies.size()));
  std::nth_element(latencies.begin(), latencies.begin() + k, latencies.end());
  return latencies[k] / 1000.0;
}

void Report(benchmark::State& state, const std::string& name,
            const Measured& measured) {
  state.counters["qps"] = measured.qps;
  state.counters["p50_us"] = measured.p50_us;
  state.counters["p99_us"] = measured.p99_us;
  state.counters["cpu_us"] = measured.cpu_us;
  for (auto& [found, runs] : Results()) {
    if (found == name) {
      runs.push_back(measured);
      return;
    }
  }
  Results().push_back({name, {measured}});
}

// ---- sysbench
// ------------------------------------------------------------------

// Reads sysbench's report: "queries: <n> (<qps> per sec.)" and the
// histogram's lines "<ms> |<bar> <count>", from which the percentiles are
// taken (sysbench prints one percentile of its own).
bool ParseSysbench(const std::string& output, Measured* measured) {
  std::vector<std::pair<double, uint64_t>> histogram;
  uint64_t total = 0;
  bool have_qps = false;
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (absl::ConsumePrefix(&line, "queries:")) {
      const size_t open = line.find('(');
      const size_t per = line.find(" per sec.");
      if (open != absl::string_view::npos && per != absl::string_view::npos) {
        have_qps = absl::SimpleAtod(line.substr(open + 1, per - open - 1),
                                    &measured->qps);
      }
      continue;
    }
    const size_t bar = line.find('|');
    if (bar == absl::string_view::npos) continue;
    double ms = 0;
    uint64_t count = 0;
    const size_t last_space = line.rfind(' ');
    if (absl::SimpleAtod(absl::StripAsciiWhitespace(line.substr(0, bar)),
                         &ms) &&
        last_space != absl::string_view::npos &&
        absl::SimpleAtoi(line.substr(last_space + 1), &count)) {
      histogram.emplace_back(ms, count);
      total += count;
    }
  }
  if (!have_qps || total == 0) return false;
  auto quantile = [&](double fraction) {
    const auto wanted = static_cast<uint64_t>(fraction * total);
    uint64_t seen = 0;
    for (const auto& [ms, count] : histogram) {
      seen += count;
      if (seen > wanted) return ms * 1000.0;
    }
    return histogram.back().first * 1000.0;
  };
  measured->p50_us = quantile(0.50);
  measured->p99_us = quantile(0.99);
  return true;
}

void BM_SysbenchPointSelect(benchmark::State& state) {
  StartOnce();
  if (!TheSetup().problem.empty()) {
    state.SkipWithError(TheSetup().problem.c_str());
    return;
  }
  const auto threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    std::string output;
    const std::string command = SysbenchCommand(absl::StrFormat(
        "--threads=%d --time=%d --histogram=on run", threads, Seconds()));
    Measured measured;
    const double cpu_before = CpuSeconds(RUSAGE_CHILDREN);
    if (!RunCommand(command, &output) || !ParseSysbench(output, &measured)) {
      state.SkipWithError(("sysbench run failed:\n" + output).c_str());
      return;
    }
    measured.cpu_us = (CpuSeconds(RUSAGE_CHILDREN) - cpu_before) * 1e6 /
                      (measured.qps * Seconds());
    state.SetIterationTime(Seconds());
    Report(state, absl::StrFormat("BM_SysbenchPointSelect/%d", threads),
           measured);
  }
}
BENCHMARK(BM_SysbenchPointSelect)
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Arg(8)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// ---- The pool
// ---------------------------------------------------------------------

// One measurement: `coroutines` coroutines over a pool of `max`
// connections until the deadline; every query's latency in `latencies`.
// "" or what failed.
std::string RunPool(int coroutines, zend_long max, Clock::time_point* start,
                    Clock::time_point* end, std::vector<uint32_t>* latencies) {
  std::string failure;
  mock_zend::Engine engine({&zar_async_module_entry, &pdo_module_entry});
  mock_zend::Request request;
  request.RunMain([&] {
    // Appended one by one: GCC 12 at -O3 takes the braced list's
    // temporaries for uninitialized (-Wmaybe-uninitialized).
    pdo_sim::Options options;
    options.emplace_back(PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_EXCEPTION});
    options.emplace_back(PDO_ATTR_POOL_ENABLED, true);
    options.emplace_back(PDO_ATTR_POOL_MAX, max);
    pdo_sim::Pdo pdo =
        pdo_sim::Pdo::Open(TheSetup().server->Dsn(), options,
                           std::string(Server::kUser), std::string());
    if (!pdo.ok()) {
      failure = zar::testing::TakeExceptionText();
      return;
    }
    int running = coroutines;
    *start = Clock::now();
    const Clock::time_point deadline = *start + std::chrono::seconds(Seconds());
    for (int i = 0; i < coroutines; i++) {
      zar::testing::Spawn([&, i] {
        std::minstd_rand random(static_cast<uint32_t>(i) + 1);
        std::uniform_int_distribution<zend_long> ids(1, kTableSize);
        while (EG(exception) == nullptr) {
          const Clock::time_point begin = Clock::now();
          if (begin >= deadline) break;
          pdo_sim::Statement stmt = pdo.Prepare(kQuery);
          if (!stmt.ok()) break;
          stmt.Execute({ids(random)});
          pdo_sim::Zval c = stmt.FetchColumn();
          stmt.Reset();
          if (EG(exception) != nullptr || c.undef()) break;
          latencies->push_back(static_cast<uint32_t>(
              std::chrono::duration_cast<std::chrono::nanoseconds>(
                  Clock::now() - begin)
                  .count()));
        }
        const std::string failed = zar::testing::TakeExceptionText();
        if (failure.empty()) failure = failed;
        running--;
      });
    }
    while (running > 0) zar::testing::Delay(1);
    *end = Clock::now();
  });
  const zend_mm_leak_info leaks = request.Finish();
  if (failure.empty() && leaks.leaked_blocks != 0) {
    failure = absl::StrFormat("%zu blocks leaked", leaks.leaked_blocks);
  }
  return failure;
}

void BM_PdoPoolPointSelect(benchmark::State& state) {
  StartOnce();
  if (!TheSetup().problem.empty()) {
    state.SkipWithError(TheSetup().problem.c_str());
    return;
  }
  const auto coroutines = static_cast<int>(state.range(0));
  const zend_long max = state.range(1);
  for (auto _ : state) {
    std::vector<uint32_t> latencies;
    latencies.reserve(static_cast<size_t>(Seconds()) * 200000);
    Clock::time_point start, end;
    const double cpu_before = CpuSeconds(RUSAGE_SELF);
    const std::string failure =
        RunPool(coroutines, max, &start, &end, &latencies);
    const double cpu = CpuSeconds(RUSAGE_SELF) - cpu_before;
    if (!failure.empty()) {
      state.SkipWithError(failure.c_str());
      return;
    }
    const double seconds = std::chrono::duration<double>(end - start).count();
    state.SetIterationTime(seconds);
    Measured measured;
    measured.qps = static_cast<double>(latencies.size()) / seconds;
    measured.p50_us = QuantileUs(latencies, 0.50);
    measured.p99_us = QuantileUs(latencies, 0.99);
    measured.cpu_us = cpu * 1e6 / static_cast<double>(latencies.size());
    Report(state,
           absl::StrFormat("BM_PdoPoolPointSelect/%d/%d", coroutines, max),
           measured);
  }
}
BENCHMARK(BM_PdoPoolPointSelect)
    ->Args({1, 1})
    ->Args({2, 2})
    ->Args({4, 4})
    ->Args({8, 8})
    ->Args({32, 8})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// ---- The table
// ------------------------------------------------------------------

void PrintTable(const zar::bench::TimeReporter& /*times*/) {
  absl::PrintF(
      "\n| connections | sysbench qps | p50 us | p99 us | CPU us/query | "
      "coroutines | pool qps | p50 us | p99 us | CPU us/query | "
      "pool/sysbench |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& [name, runs] : Results()) {
    int coroutines = 0;
    int max = 0;
    if (std::sscanf(name.c_str(), "BM_PdoPoolPointSelect/%d/%d", &coroutines,
                    &max) != 2) {
      continue;
    }
    const Measured* theirs =
        Median(absl::StrFormat("BM_SysbenchPointSelect/%d", max));
    if (theirs == nullptr) continue;
    const Measured& sb = *theirs;
    const Measured& ours = *Median(name);
    absl::PrintF(
        "| %d | %.0f | %.0f | %.0f | %.1f | %d | %.0f | %.0f | %.0f | %.1f | "
        "%.2f |\n",
        max, sb.qps, sb.p50_us, sb.p99_us, sb.cpu_us, coroutines, ours.qps,
        ours.p50_us, ours.p99_us, ours.cpu_us, ours.qps / sb.qps);
  }
  absl::PrintF("(target: pool/sysbench >= 0.80 at the same connections)\n");
  if (TheSetup().server != nullptr) {
    const std::string problem = TheSetup().server->Stop();
    if (!problem.empty()) absl::FPrintF(stderr, "%s\n", problem);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return zar::bench::RunAndPrint(argc, argv, PrintTable);
}
