#include "tools/conformance/areas.h"

#include <algorithm>
#include <cctype>

namespace zar::conformance {
namespace {

constexpr std::string_view kRegistration = "registration";
constexpr std::string_view kLifecycle = "lifecycle";
constexpr std::string_view kEvents = "events and callbacks";
constexpr std::string_view kWaker = "waker";
constexpr std::string_view kScheduler = "scheduler";
constexpr std::string_view kFutures = "futures";
constexpr std::string_view kIterators = "iterators";
constexpr std::string_view kTaskGroups = "task groups";
constexpr std::string_view kReactor = "reactor";
constexpr std::string_view kDns = "DNS";
constexpr std::string_view kProcesses = "processes";
constexpr std::string_view kFilesystemEvents = "filesystem events";
constexpr std::string_view kAsyncIo = "async IO";
constexpr std::string_view kPool = "pool";
constexpr std::string_view kCircuitBreaker = "circuit breaker";
constexpr std::string_view kHealthcheck = "healthcheck";
constexpr std::string_view kPdoPool = "PDO pool";
constexpr std::string_view kPoolModel = "pool model";
constexpr std::string_view kSocketListening = "socket listening";
constexpr std::string_view kThreadPool = "thread pool";
constexpr std::string_view kThreads = "threads";
constexpr std::string_view kChannels = "channels";

struct Entry {
  std::string_view name;  // "Suite" or "Suite.Test"
  std::string_view area;
};

// Every suite of the conformance suites (tests/abi, tests/scheduler,
// tests/future, tests/channel, tests/iterator, tests/task_group,
// tests/reactor, tests/io, tests/thread_pool, tests/pool, tests/pdo), and
// the tests filed elsewhere than their suite.
constexpr Entry kTable[] = {
    // tests/abi: the ABI host itself (registry, state machine, event base,
    // callbacks, wakers, coroutine helpers), with its own fake extension.
    {"AbiRegistrationTest", kRegistration},
    {"AbiDefaultsTest", kRegistration},
    {"AbiLayoutTest", kRegistration},
    {"AbiHeaderCTest", kRegistration},
    {"AbiLifecycleTest", kLifecycle},
    {"AbiEventTest", kEvents},
    {"AbiCallbacksTest", kEvents},
    {"AbiWakerTest", kWaker},
    {"AbiWakerErrorTest", kWaker},
    {"AbiCoroutineTest", kScheduler},
    {"AbiInternalContextTest", kScheduler},
    {"AbiSwitchHandlersTest", kScheduler},
    {"AbiExceptionsTest", kScheduler},
    {"AbiExceptionsDefaultTest", kScheduler},

    // tests/scheduler: the implementation's scheduler.
    {"LifecycleTest", kLifecycle},
    {"ShutdownTest", kLifecycle},
    {"ForkTest", kLifecycle},
    {"WakerTest", kWaker},
    {"AwaitTest", kScheduler},
    {"ClassesTest", kScheduler},
    {"ContextTest", kScheduler},
    {"DeadlockTest", kScheduler},
    {"FinishCallbackTest", kScheduler},
    {"MicrotaskTest", kScheduler},
    {"ScopeTest", kScheduler},
    {"SpawnTest", kScheduler},
    {"SuspendTest", kScheduler},
    {"WakeTest", kScheduler},

    // tests/future: the implementation's futures.
    {"FutureTest", kFutures},

    // tests/iterator: the implementation's async iterators.
    {"IteratorTest", kIterators},
    // tests/task_group: the implementation's task groups.
    {"TaskGroupTest", kTaskGroups},
    {"TaskSetTest", kTaskGroups},

    // tests/reactor: the implementation's reactor.
    {"ReactorRegistrationTest", kRegistration},
    {"PollEventTest", kReactor},
    {"PollProxyEventTest", kReactor},
    {"ReactorLifetimeTest", kReactor},
    {"ReactorLoopTest", kReactor},
    {"SignalEventTest", kReactor},
    {"TimerEventTest", kReactor},
    {"TriggerEventTest", kReactor},
    {"DnsTest", kDns},
    {"ProcessEventTest", kProcesses},
    {"ExecEventTest", kProcesses},
    {"ExecTest", kProcesses},
    {"FilesystemEventTest", kFilesystemEvents},

    // tests/io
    {"IoFileTest", kAsyncIo},
    {"IoStreamFreeTest", kAsyncIo},
    {"IoStreamTest", kAsyncIo},
    {"IoUdpTest", kAsyncIo},
    {"SocketListenTest", kSocketListening},

    // tests/thread_pool: the implementation's thread pool group.
    {"TaskTest", kThreadPool},
    {"ZvalTransferTest", kThreadPool},
    {"WorkerPoolTest", kThreadPool},
    {"ThreadEventTest", kThreads},

    // tests/channel: the implementation's channels and Async\Channel.
    {"ChannelAsyncTest", kChannels},
    {"ChannelCApiTest", kChannels},
    {"ChannelCloseTest", kChannels},
    {"ChannelCreationTest", kChannels},
    {"ChannelDeadlockTest", kChannels},
    {"ChannelFairnessTest", kChannels},
    {"ChannelPassingTest", kChannels},
    {"ChannelTokenTest", kChannels},

    // tests/pool: the implementation's Async\Pool.
    {"PoolAcquireReleaseTest", kPool},
    {"PoolCApiTest", kPool},
    {"PoolCApiTest.CircuitStateWrittenByACUserGatesAcquire", kCircuitBreaker},
    {"PoolCApiTest.InternalStrategyIsToldOfEveryRelease", kCircuitBreaker},
    {"PoolCApiTest.HealthcheckWithCHandlers", kHealthcheck},
    {"PoolChaosTest", kPool},
    {"PoolChaosTest.BreakerCyclesEndActive", kCircuitBreaker},
    {"PoolChaosTest.RecordingStrategyCountsThreeSuccesses", kCircuitBreaker},
    {"PoolChaosTest.PoolRejectingEveryReleaseReportsTwoFailures",
     kCircuitBreaker},
    {"PoolChaosTest.StrategyAttachDetach", kCircuitBreaker},
    {"PoolChaosScenarioTest", kPool},
    {"PoolCircuitBreakerTest", kCircuitBreaker},
    {"PoolCloseTest", kPool},
    {"PoolCreationTest", kPool},
    {"PoolFactoryDestructorTest", kPool},
    {"PoolFailureModesTest", kPool},
    {"PoolGcTest", kPool},
    {"PoolHealthcheckTest", kHealthcheck},
    {"PoolHooksTest", kPool},
    {"PoolTimeoutTest", kPool},
    {"PoolTryAcquireTest", kPool},
    {"PoolWaitingTest", kPool},

    // tests/pool_model: random sequences checked against the pool model.
    {"PoolModelTest", kPoolModel},

    // tests/pdo: PDO (host side) over the implementation's pool. The suites
    // named by their theme run on every driver built (the mock, and the
    // mysql driver against a private MariaDB: ".../mock", ".../mysql");
    // <Theme>MockTest on the mock only (a scripted fault, or no server
    // needed), <Theme>SqliteTest on SQLite.
    {"BindingTest", kPdoPool},
    {"BindingSqliteTest", kPdoPool},
    {"BrokenTest", kPdoPool},
    {"CreationTest", kPdoPool},
    {"CreationMockTest", kPdoPool},
    {"CreationSqliteTest", kPdoPool},
    {"ErrorTest", kPdoPool},
    {"ErrorMockTest", kPdoPool},
    {"ErrorSqliteTest", kPdoPool},
    {"PlainPdoTest", kPdoPool},
    {"PlainPdoMockTest", kPdoPool},
    {"PlainPdoSqliteTest", kPdoPool},
    {"SessionTest", kPdoPool},
    {"SessionSqliteTest", kPdoPool},
    {"SqlitePoolTest", kPdoPool},
    {"SqliteRegistryTest", kPdoPool},
    {"StatementTest", kPdoPool},
    {"StatementSqliteTest", kPdoPool},
    {"StmtCacheTest", kPdoPool},
    {"StmtCacheApiTest", kPdoPool},
    {"TeardownTest", kPdoPool},
    {"TeardownSqliteTest", kPdoPool},
    {"TransactionTest", kPdoPool},
    {"TransactionSqliteTest", kPdoPool},
};

// "Prefix/Suite" -> "Suite"; "Test/3" -> "Test".
std::string_view WithoutInstantiation(std::string_view suite) {
  const size_t slash = suite.rfind('/');
  return slash == std::string_view::npos ? suite : suite.substr(slash + 1);
}

std::string_view WithoutIndex(std::string_view test) {
  const size_t slash = test.find('/');
  return slash == std::string_view::npos ? test : test.substr(0, slash);
}

std::string Normalized(std::string_view name) {
  std::string out;
  for (const char c : name) {
    out += (c == '-' || c == '_')
               ? ' '
               : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

}  // namespace

const std::vector<std::string_view>& AreaNames() {
  static const std::vector<std::string_view> kNames = {kRegistration,
                                                       kLifecycle,
                                                       kEvents,
                                                       kWaker,
                                                       kScheduler,
                                                       kFutures,
                                                       kChannels,
                                                       kIterators,
                                                       kTaskGroups,
                                                       kReactor,
                                                       kDns,
                                                       kProcesses,
                                                       kFilesystemEvents,
                                                       kAsyncIo,
                                                       kSocketListening,
                                                       kThreadPool,
                                                       kThreads,
                                                       kPool,
                                                       kCircuitBreaker,
                                                       kHealthcheck,
                                                       kPoolModel,
                                                       kPdoPool};
  return kNames;
}

std::optional<std::string_view> FindArea(std::string_view name) {
  const std::string wanted = Normalized(name);
  for (const std::string_view area : AreaNames()) {
    if (Normalized(area) == wanted) return area;
  }
  return std::nullopt;
}

std::optional<std::string_view> AreaOf(std::string_view suite,
                                       std::string_view test) {
  const std::string bare_suite(WithoutInstantiation(suite));
  const std::string full = bare_suite + "." + std::string(WithoutIndex(test));
  std::optional<std::string_view> area;
  for (const Entry& entry : kTable) {
    if (entry.name == full) return entry.area;
    if (entry.name == bare_suite) area = entry.area;
  }
  return area;
}

std::vector<std::string> TableProblems(
    const std::vector<std::string>& behaviours) {
  std::vector<std::string> problems;
  for (size_t i = 0; i < std::size(kTable); i++) {
    const Entry& entry = kTable[i];
    for (size_t j = 0; j < i; j++) {
      if (kTable[j].name == entry.name) {
        problems.push_back("entry " + std::string(entry.name) +
                           " appears twice");
      }
    }
    const bool is_test = entry.name.find('.') != std::string_view::npos;
    const bool used = std::any_of(
        behaviours.begin(), behaviours.end(), [&](const std::string& full) {
          const size_t dot = full.find('.');
          const std::string suite(
              WithoutInstantiation(std::string_view(full).substr(0, dot)));
          if (!is_test) return entry.name == suite;
          return entry.name == suite + "." +
                                   std::string(WithoutIndex(
                                       std::string_view(full).substr(dot + 1)));
        });
    if (!used) {
      problems.push_back("entry " + std::string(entry.name) +
                         " names no behaviour");
    }
  }
  return problems;
}

}  // namespace zar::conformance
