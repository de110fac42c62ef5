#include "core/reactor/filesystem_event.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cinttypes>
#include <cstring>

#include "core/internal/release.h"
#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"

namespace zar::core::reactor {
namespace {

// A recursive event watches at most this many directories (each costs one
// inotify watch of the user's fs.inotify.max_user_watches); the rest of a
// larger tree is not watched.
constexpr uint32_t kMaxWatchedDirs = 8192;

// One directory of a recursive event's tree. Its handle is open from
// WatchDir until Unwatch or the event's teardown; its memory goes in the
// close callback, which the event owes (BeginRequest), so `owner` is
// always valid. The handle keeps libuv's default ref: it holds the loop
// only while armed, and it is armed only while the event is started.
struct WatchedDir {
  uv_fs_event_t handle;  // data = this
  EventCore* owner;
  zend_string* abs_path;  // the directory as watched ("<path>/sub/deep")
  zend_string* rel_path;  // relative to the event's path; "" for the root
};

struct FilesystemEvent : EventOf<FilesystemEvent> {
  zend_async_filesystem_event_t abi;  // ABI structure (must be first)
  EventCore core;
  // Without RECURSIVE: the watch (core.handle). With it: never initialised.
  uv_fs_event_t handle;
  uv_loop_t* loop;
  bool recursive;
  // RECURSIVE: the watched directories (emalloc'd, dir_count used of
  // dir_capacity), no abs_path twice. Empty until the first start; kept
  // across stop/start; emptied only by teardown.
  WatchedDir** dirs;
  uint32_t dir_count;
  uint32_t dir_capacity;

  static FilesystemEvent* FromCore(EventCore* core) {
    return FromAbi(core->event);
  }
  static zend_string* Info(zend_async_event_t* event);
};

// ---- Tracing (cold: only with tracing on) -----------------------------------

[[gnu::cold]] void TraceWatch(EventCore* core, const char* what) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("fs watch %s %s", what, EventToken(core, token));
}

[[gnu::cold]] void TraceStart(FilesystemEvent* self) {
  if (self->recursive) {
    zend_async_ref_trace("fs watch start %s (recursive, %" PRIu32 " dir(s))",
                         EventName(&self->core).c_str(), self->dir_count);
  } else {
    zend_async_ref_trace("fs watch start %s", EventName(&self->core).c_str());
  }
}

[[gnu::cold]] void TraceTree(EventCore* core, const char* what,
                             const zend_string* rel_path) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("fs watch %s %s %s", what, EventToken(core, token),
                       ZSTR_LEN(rel_path) != 0 ? ZSTR_VAL(rel_path) : ".");
}

[[gnu::cold]] void TraceChange(FilesystemEvent* self, int status) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  EventToken(&self->core, token);
  if (status < 0) {
    zend_async_ref_trace("fs change %s -> Filesystem monitoring error: %s",
                         token, uv_strerror(status));
    return;
  }
  const unsigned int events = self->abi.triggered_events;
  const char* kind =
      (events & ZEND_ASYNC_FS_EVENT_RENAME) != 0
          ? ((events & ZEND_ASYNC_FS_EVENT_CHANGE) != 0 ? "rename|change"
                                                        : "rename")
          : "change";
  const zend_string* name = self->abi.triggered_filename;
  zend_async_ref_trace("fs change %s %s %s", token, kind,
                       name != nullptr ? ZSTR_VAL(name) : "<null>");
}

// ---- Notification -----------------------------------------------------------

// Forgets the previous change: each notification describes one.
void ResetTrigger(FilesystemEvent* self) {
  core::internal::ReleaseAndClear(self->abi.triggered_filename);
  self->abi.triggered_events = 0;
}

unsigned int TriggeredEvents(int uv_events) {
  unsigned int events = 0;
  if ((uv_events & UV_RENAME) != 0) events |= ZEND_ASYNC_FS_EVENT_RENAME;
  if ((uv_events & UV_CHANGE) != 0) events |= ZEND_ASYNC_FS_EVENT_CHANGE;
  return events;
}

// "<prefix>/<name>", or `name` for an empty prefix.
zend_string* JoinPath(const zend_string* prefix, const char* name) {
  if (ZSTR_LEN(prefix) == 0) {
    return zend_string_init(name, strlen(name), 0);
  }
  return zend_strpprintf(0, "%s/%s", ZSTR_VAL(prefix), name);
}

// Notifies the change already stored in the ABI fields, or the failure
// `status`. The callbacks may stop or release the event: nothing of it is
// touched afterwards.
void Notify(FilesystemEvent* self, int status) {
  if (ZEND_ASYNC_REF_TRACING()) TraceChange(self, status);
  uv_loop_t* loop = self->loop;
  zend_object* exception = nullptr;
  if (status < 0) {
    exception = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT,
                                         "Filesystem monitoring error: %s",
                                         uv_strerror(status));
  }
  ZEND_ASYNC_CALLBACKS_NOTIFY(&self->abi.base, nullptr, exception);
  if (exception != nullptr) {
    OBJ_RELEASE(exception);
  }
  StopLoopIfException(loop);
}

void OnChange(uv_fs_event_t* handle, const char* filename, int events,
              int status) {
  FilesystemEvent* self =
      FilesystemEvent::FromCore(static_cast<EventCore*>(handle->data));
  ResetTrigger(self);
  if (status >= 0) {
    self->abi.triggered_events = TriggeredEvents(events);
    if (filename != nullptr) {
      self->abi.triggered_filename =
          zend_string_init(filename, strlen(filename), 0);
    }
  }
  Notify(self, status);
}

// ---- The recursive tree -----------------------------------------------------

void OnDirChange(uv_fs_event_t* handle, const char* filename, int events,
                 int status);

void OnDirClosed(uv_handle_t* handle) {
  auto* dir = static_cast<WatchedDir*>(handle->data);
  EventCore* owner = dir->owner;
  zend_string_release(dir->abs_path);
  zend_string_release(dir->rel_path);
  efree(dir);
  EndRequest(owner);  // may free the event (destroyed, nothing else owed)
}

void CloseDir(WatchedDir* dir) {
  BeginRequest(dir->owner);  // OnDirClosed is owed
  uv_close(reinterpret_cast<uv_handle_t*>(&dir->handle), OnDirClosed);
}

bool IsDirectory(const zend_string* path) {
  // lstat: a symbolic link to a directory is not followed (no cycles).
  struct stat st;
  return lstat(ZSTR_VAL(path), &st) == 0 && S_ISDIR(st.st_mode);
}

int WatchDir(FilesystemEvent* self, zend_string* abs_path,
             zend_string* rel_path);

// Watches every subdirectory of `abs_path` (and, through WatchDir, theirs), up
// to kMaxWatchedDirs. A directory that cannot be listed is skipped.
void WatchSubdirectories(FilesystemEvent* self, zend_string* abs_path,
                         zend_string* rel_path) {
  DIR* listing = opendir(ZSTR_VAL(abs_path));
  if (listing == nullptr) {
    return;
  }
  const struct dirent* entry;
  while (self->dir_count < kMaxWatchedDirs &&
         (entry = readdir(listing)) != nullptr) {
    const char* name = entry->d_name;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
      continue;
    }
    zend_string* child_abs = JoinPath(abs_path, name);
    if (IsDirectory(child_abs)) {
      zend_string* child_rel = JoinPath(rel_path, name);
      WatchDir(self, child_abs, child_rel);
      zend_string_release(child_rel);
    }
    zend_string_release(child_abs);
  }
  closedir(listing);
}

// Adds a watch on `abs_path` (armed at once) and on the subdirectories
// already in it. Returns 0 (also when it is watched already), UV_ENOSPC
// past kMaxWatchedDirs, or libuv's error (the directory is then not
// watched).
int WatchDir(FilesystemEvent* self, zend_string* abs_path,
             zend_string* rel_path) {
  if (self->dir_count >= kMaxWatchedDirs) {
    return UV_ENOSPC;
  }
  for (uint32_t i = 0; i < self->dir_count; i++) {
    if (zend_string_equals(self->dirs[i]->abs_path, abs_path)) {
      return 0;
    }
  }
  auto* dir = static_cast<WatchedDir*>(ecalloc(1, sizeof(WatchedDir)));
  int error = uv_fs_event_init(self->loop, &dir->handle);
  if (error < 0) {
    efree(dir);
    return error;
  }
  dir->handle.data = dir;
  dir->owner = &self->core;
  dir->abs_path = zend_string_copy(abs_path);
  dir->rel_path = zend_string_copy(rel_path);
  error = uv_fs_event_start(&dir->handle, OnDirChange, ZSTR_VAL(abs_path), 0);
  if (error < 0) {
    CloseDir(dir);
    return error;
  }
  if (self->dir_count == self->dir_capacity) {
    self->dir_capacity = self->dir_capacity != 0 ? self->dir_capacity * 2 : 8;
    self->dirs = static_cast<WatchedDir**>(
        safe_erealloc(self->dirs, self->dir_capacity, sizeof(WatchedDir*), 0));
  }
  self->dirs[self->dir_count++] = dir;
  if (ZEND_ASYNC_REF_TRACING()) TraceTree(&self->core, "add", rel_path);
  WatchSubdirectories(self, abs_path, rel_path);
  return 0;
}

// Drops the watch at self->dirs[index] (the last one takes its place).
void Unwatch(FilesystemEvent* self, uint32_t index) {
  WatchedDir* dir = self->dirs[index];
  self->dirs[index] = self->dirs[--self->dir_count];
  if (ZEND_ASYNC_REF_TRACING()) TraceTree(&self->core, "drop", dir->rel_path);
  CloseDir(dir);
}

// Drops the watches on `abs_path` and on everything under it: the
// directory vanished, and the same path created again must be watched
// afresh.
void UnwatchSubtree(FilesystemEvent* self, const zend_string* abs_path) {
  const size_t length = ZSTR_LEN(abs_path);
  uint32_t i = 0;
  while (i < self->dir_count) {
    const zend_string* watched = self->dirs[i]->abs_path;
    const bool inside =
        ZSTR_LEN(watched) >= length &&
        memcmp(ZSTR_VAL(watched), ZSTR_VAL(abs_path), length) == 0 &&
        (ZSTR_LEN(watched) == length || ZSTR_VAL(watched)[length] == '/');
    if (inside) {
      Unwatch(self, i);  // dirs[i] is now another entry: look at it again
    } else {
      i++;
    }
  }
}

// A change in one directory of the tree: reported relative to the event's
// path. An entry that appeared or vanished (RENAME) keeps the tree in
// step: a directory gains a watch, anything else that vanished loses the
// watches under its path.
void OnDirChange(uv_fs_event_t* handle, const char* filename, int events,
                 int status) {
  auto* dir = static_cast<WatchedDir*>(handle->data);
  FilesystemEvent* self = FilesystemEvent::FromCore(dir->owner);
  ResetTrigger(self);
  if (status < 0) {
    Notify(self, status);
    return;
  }
  self->abi.triggered_events = TriggeredEvents(events);
  if (filename != nullptr) {
    self->abi.triggered_filename = JoinPath(dir->rel_path, filename);
    if ((events & UV_RENAME) != 0) {
      zend_string* child_abs = JoinPath(dir->abs_path, filename);
      if (IsDirectory(child_abs)) {
        WatchDir(self, child_abs, self->abi.triggered_filename);
      } else {
        UnwatchSubtree(self, child_abs);
      }
      zend_string_release(child_abs);
    }
  }
  Notify(self, 0);
}

// ---- The event kind ---------------------------------------------------------

int Arm(zend_async_event_t* event) {
  FilesystemEvent* self = FilesystemEvent::FromAbi(event);
  int error = 0;
  if (!self->recursive) {
    error =
        uv_fs_event_start(&self->handle, OnChange, ZSTR_VAL(self->abi.path), 0);
  } else if (self->dir_count == 0) {
    zend_string* root = ZSTR_EMPTY_ALLOC();
    error = WatchDir(self, self->abi.path, root);
    zend_string_release(root);
  } else {
    // A restart: re-arms the tree as it was; a directory gone meanwhile is
    // dropped.
    uint32_t i = 0;
    while (i < self->dir_count) {
      WatchedDir* dir = self->dirs[i];
      if (uv_fs_event_start(&dir->handle, OnDirChange, ZSTR_VAL(dir->abs_path),
                            0) < 0) {
        Unwatch(self, i);
      } else {
        i++;
      }
    }
  }
  if (error == 0 && ZEND_ASYNC_REF_TRACING()) TraceStart(self);
  return error;
}

void Disarm(zend_async_event_t* event) {
  FilesystemEvent* self = FilesystemEvent::FromAbi(event);
  if (!self->recursive) {
    uv_fs_event_stop(&self->handle);
  } else {
    for (uint32_t i = 0; i < self->dir_count; i++) {
      uv_fs_event_stop(&self->dirs[i]->handle);
    }
  }
  if (ZEND_ASYNC_REF_TRACING()) TraceWatch(&self->core, "stop");
}

// The handle of a non-recursive event is closed by Destroy; a recursive
// event's watches are closed here, and each close callback it owes keeps
// its memory.
void Teardown(zend_async_event_t* event) {
  FilesystemEvent* self = FilesystemEvent::FromAbi(event);
  ResetTrigger(self);
  for (uint32_t i = 0; i < self->dir_count; i++) {
    CloseDir(self->dirs[i]);
  }
  self->dir_count = 0;
  if (self->dirs != nullptr) {
    efree(self->dirs);
    self->dirs = nullptr;
  }
  core::internal::ReleaseAndClear(self->abi.path);
}

constexpr EventKind kFilesystemKind = {
    .name = "filesystem", .arm = Arm, .disarm = Disarm, .teardown = Teardown};

// start(): as every reactor event's, with upstream's texts and class.
bool Start(zend_async_event_t* event) {
  FilesystemEvent* self = FilesystemEvent::FromAbi(event);
  const int error = StartEvent(&self->core);
  if (error < 0) {
    if (self->recursive) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Failed to start recursive filesystem watch on %s",
                       ZSTR_VAL(self->abi.path));
    } else {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Failed to start filesystem handle: %s",
                       uv_strerror(error));
    }
  }
  return error == 0;
}

zend_string* FilesystemEvent::Info(zend_async_event_t* event) {
  const zend_string* path = FromAbi(event)->abi.path;
  return zend_strpprintf(0, "FilesystemWatch(path=%s)",
                         path != nullptr ? ZSTR_VAL(path) : "<null>");
}

}  // namespace

zend_async_filesystem_event_t* NewFilesystemEvent(zend_string* path,
                                                  unsigned int flags,
                                                  size_t extra_size) {
  uv_loop_t* loop = AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  FilesystemEvent* self = AllocateEvent<FilesystemEvent>(extra_size);
  self->abi.base.start = Start;
  self->loop = loop;
  self->recursive = (flags & ZEND_ASYNC_FS_EVENT_RECURSIVE) != 0;
  uv_handle_t* handle = nullptr;
  if (!self->recursive) {
    if (!HandleInitialized(uv_fs_event_init(loop, &self->handle), self,
                           "filesystem")) {
      return nullptr;
    }
    handle = reinterpret_cast<uv_handle_t*>(&self->handle);
  }
  self->abi.path = zend_string_copy(path);
  self->abi.flags = flags;
  InitCore(&self->core, &kFilesystemKind, &self->abi.base, handle);
  return &self->abi;
}

}  // namespace zar::core::reactor
