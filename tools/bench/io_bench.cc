// zar_io_bench: an echo over an AF_UNIX socket pair, through the ABI and
// directly on libuv, in one run.
//
//   BM_AbiEcho   two coroutines of the reference extension: the client
//                writes a 64-byte message (ZEND_ASYNC_IO_WRITE) and parks
//                on its read until the echo arrives; the server parks on its
//                read, writes what it got back and parks on that write. One
//                iteration = one message there and back.
//   BM_LibuvEcho the same echo written directly on libuv: two uv_pipe_t on
//                the pair, the server's read callback writes the bytes back
//                (uv_write), the client's read callback ends the iteration.
// Afterwards the messages per second of each and the ratio are printed.
//
//   zar_io_bench [--benchmark_min_time=2] [--benchmark_repetitions=5]

#include <benchmark/benchmark.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/extension.h"
#include "mock_zend/lifecycle.h"
#include "tools/bench/time_reporter.h"
#include "zend_async_ref/testing/coroutines.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace {

constexpr size_t kMessageSize = 64;
// What each side reads into: PHP's stream chunk (8 KiB).
constexpr size_t kReadBuffer = 8192;
const char kMessage[kMessageSize] =
    "ping: sixty-four bytes of echo, there and back again, each time";

// ---- Through the ABI --------------------------------------------------------

// A coroutine waits for its request as PHP's stream layer does
// (zar::testing::WaitForIo: a waker callback on the handle that resumes on
// that request).
bool Await(zend_async_io_t* io, zend_async_io_req_t* req) {
  return zar::testing::WaitForIo(io, req) && req->exception == nullptr;
}

benchmark::State* measured = nullptr;
zend_async_io_t* client = nullptr;
zend_async_io_t* server = nullptr;
bool client_done = false;

void ClientCoroutine() {
  char buf[kReadBuffer];
  for (auto _ : *measured) {
    zend_async_io_req_t* sent =
        ZEND_ASYNC_IO_WRITE(client, kMessage, kMessageSize);
    size_t got = 0;
    while (got < kMessageSize) {
      zend_async_io_req_t* read =
          ZEND_ASYNC_IO_READ(client, buf + got, sizeof(buf) - got);
      if (!Await(client, read)) break;
      got += static_cast<size_t>(read->transferred);
      read->dispose(read);
    }
    Await(client, sent);
    sent->dispose(sent);
  }
  client_done = true;
  ZEND_ASYNC_IO_CLOSE(client);  // the server reads EOF and ends
}

void ServerCoroutine() {
  char buf[kReadBuffer];
  for (;;) {
    zend_async_io_req_t* read = ZEND_ASYNC_IO_READ(server, buf, sizeof(buf));
    if (read == nullptr || !Await(server, read) || read->transferred <= 0) {
      if (read != nullptr) read->dispose(read);
      break;
    }
    const auto n = static_cast<size_t>(read->transferred);
    read->dispose(read);
    zend_async_io_req_t* echo = ZEND_ASYNC_IO_WRITE(server, buf, n);
    Await(server, echo);
    echo->dispose(echo);
  }
}

void BM_AbiEcho(benchmark::State& state) {
  mock_zend::Engine engine({&zar_async_module_entry});
  mock_zend::Request request;
  measured = &state;
  client_done = false;
  request.RunMain([] {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return;
    client =
        ZEND_ASYNC_IO_CREATE(fds[0], ZEND_ASYNC_IO_TYPE_PIPE,
                             ZEND_ASYNC_IO_READABLE | ZEND_ASYNC_IO_WRITABLE);
    server =
        ZEND_ASYNC_IO_CREATE(fds[1], ZEND_ASYNC_IO_TYPE_PIPE,
                             ZEND_ASYNC_IO_READABLE | ZEND_ASYNC_IO_WRITABLE);
    zend_coroutine_t* s = ZEND_ASYNC_SPAWN();
    s->internal_entry = ServerCoroutine;
    zend_coroutine_t* c = ZEND_ASYNC_SPAWN();
    c->internal_entry = ClientCoroutine;
  });
  ZEND_ASYNC_EVENT_RELEASE(&client->event);
  ZEND_ASYNC_EVENT_RELEASE(&server->event);
  measured = nullptr;
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AbiEcho)->Unit(benchmark::kNanosecond);

// ---- Directly on libuv ------------------------------------------------------

struct RawEcho {
  uv_loop_t loop;
  uv_pipe_t client;
  uv_pipe_t server;
  char client_buf[kReadBuffer];
  char server_buf[kReadBuffer];
  size_t got = 0;
};

void AllocClient(uv_handle_t* handle, size_t, uv_buf_t* out) {
  auto* echo = static_cast<RawEcho*>(handle->data);
  *out =
      uv_buf_init(echo->client_buf + echo->got,
                  static_cast<unsigned>(sizeof(echo->client_buf) - echo->got));
}

void AllocServer(uv_handle_t* handle, size_t, uv_buf_t* out) {
  auto* echo = static_cast<RawEcho*>(handle->data);
  *out = uv_buf_init(echo->server_buf, sizeof(echo->server_buf));
}

void OnClientRead(uv_stream_t* stream, ssize_t n, const uv_buf_t*) {
  auto* echo = static_cast<RawEcho*>(stream->data);
  if (n > 0) echo->got += static_cast<size_t>(n);
}

struct EchoWrite {
  uv_write_t req;
  char data[kReadBuffer];
};

void OnEchoWritten(uv_write_t* req, int) {
  delete reinterpret_cast<EchoWrite*>(req);
}

void OnServerRead(uv_stream_t* stream, ssize_t n, const uv_buf_t* buf) {
  if (n <= 0) return;
  auto* write = new EchoWrite;
  std::memcpy(write->data, buf->base, static_cast<size_t>(n));
  uv_buf_t out = uv_buf_init(write->data, static_cast<unsigned>(n));
  uv_write(&write->req, stream, &out, 1, OnEchoWritten);
}

void OnSent(uv_write_t*, int) {}

void BM_LibuvEcho(benchmark::State& state) {
  RawEcho echo;
  uv_loop_init(&echo.loop);
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return;
  uv_pipe_init(&echo.loop, &echo.client, 0);
  uv_pipe_init(&echo.loop, &echo.server, 0);
  uv_pipe_open(&echo.client, fds[0]);
  uv_pipe_open(&echo.server, fds[1]);
  echo.client.data = &echo;
  echo.server.data = &echo;
  uv_read_start(reinterpret_cast<uv_stream_t*>(&echo.client), AllocClient,
                OnClientRead);
  uv_read_start(reinterpret_cast<uv_stream_t*>(&echo.server), AllocServer,
                OnServerRead);
  uv_write_t send;
  for (auto _ : state) {
    echo.got = 0;
    uv_buf_t out = uv_buf_init(const_cast<char*>(kMessage), kMessageSize);
    uv_write(&send, reinterpret_cast<uv_stream_t*>(&echo.client), &out, 1,
             OnSent);
    while (echo.got < kMessageSize) uv_run(&echo.loop, UV_RUN_ONCE);
  }
  uv_close(reinterpret_cast<uv_handle_t*>(&echo.client), nullptr);
  uv_close(reinterpret_cast<uv_handle_t*>(&echo.server), nullptr);
  uv_run(&echo.loop, UV_RUN_DEFAULT);
  uv_loop_close(&echo.loop);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LibuvEcho)->Unit(benchmark::kNanosecond);

// ---- Rates ------------------------------------------------------------------

void PrintRates(const zar::bench::TimeReporter& times) {
  const double abi = times.Get("BM_AbiEcho");
  const double raw = times.Get("BM_LibuvEcho");
  if (abi <= 0 || raw <= 0) return;
  absl::PrintF("echo through the ABI: %.0f messages/s\n", 1e9 / abi);
  absl::PrintF("echo on libuv:        %.0f messages/s\n", 1e9 / raw);
  absl::PrintF("ratio abi/libuv rate  = %.2f (target >= 0.90)\n", raw / abi);
}

}  // namespace

int main(int argc, char** argv) {
  return zar::bench::RunAndPrint(argc, argv, PrintRates);
}
