#include "verify/schedule_source.h"

#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>
#include <limits.h>
#include <stdlib.h>

#include <cstdlib>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <iterator>
#include <stdexcept>

#include "verify/construction_abi.h"

namespace rosched::verify {
namespace {

class BuiltinSource : public ScheduleSource {
 public:
  BuiltinSource(Construction c, bool per_rank) : c_(c), per_rank_(per_rank) {}
  std::string name() const override {
    return std::string(construction_name(c_)) + (per_rank_ ? "/per-rank" : "");
  }
  std::string command_line() const override {
    return std::string("--construction ") + construction_name(c_) + (per_rank_ ? " --per-rank" : "");
  }
  std::optional<sim::Counterexample> build(const Skips& s, FullSchedule& f) const override {
    if (per_rank_) {
      f = full_schedule_per_rank(s, c_);
    } else {
      full_schedule(s, c_, f);
    }
    return std::nullopt;
  }

 private:
  Construction c_;
  bool per_rank_;
};

// The path as an absolute one, so that the reproduce command works from anywhere.
std::string absolute(const std::string& path) {
  char* resolved = realpath(path.c_str(), nullptr);
  if (!resolved) return path;
  std::string out(resolved);
  std::free(resolved);
  return out;
}

// The plugin call a thread is in, for the crash and exit() reports.
struct PluginCall {
  const char* function = nullptr;  // nullptr: not in a plugin call
  std::int64_t p = 0, rank = 0;
};
thread_local PluginCall current_call;

// Appends the decimal digits of x to buf at *at (async-signal-safe).
void append_number(char* buf, std::size_t size, std::size_t* at, std::int64_t x) {
  char digits[24];
  int n = 0;
  std::uint64_t u = x < 0 ? 0 - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x);
  do {
    digits[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0 && n < 24);
  if (x < 0 && *at < size) buf[(*at)++] = '-';
  while (n > 0 && *at < size) buf[(*at)++] = digits[--n];
}

void append_text(char* buf, std::size_t size, std::size_t* at, const char* text) {
  while (*text && *at < size) buf[(*at)++] = *text++;
}

// "verify: FAILED construction <what> in <function> at p=P rank=R" on stderr, then exit 1.
[[noreturn]] void report_plugin_death(const char* what, int signal_number) {
  char line[256];
  std::size_t at = 0;
  append_text(line, sizeof line, &at, "verify: FAILED construction ");
  append_text(line, sizeof line, &at, what);
  if (signal_number > 0) {
    append_text(line, sizeof line, &at, " (signal ");
    append_number(line, sizeof line, &at, signal_number);
    append_text(line, sizeof line, &at, ")");
  }
  append_text(line, sizeof line, &at, " in ");
  append_text(line, sizeof line, &at, current_call.function);
  append_text(line, sizeof line, &at, " at p=");
  append_number(line, sizeof line, &at, current_call.p);
  append_text(line, sizeof line, &at, " rank=");
  append_number(line, sizeof line, &at, current_call.rank);
  append_text(line, sizeof line, &at, "\n");
  ssize_t ignored = write(STDERR_FILENO, line, at);
  (void)ignored;
  _exit(1);
}

void on_fatal_signal(int sig) {
  if (current_call.function) report_plugin_death("crashed", sig);
  signal(sig, SIG_DFL);  // not in a plugin: die as the signal says
  raise(sig);
}

void on_exit_call() {
  if (current_call.function) report_plugin_death("called exit()", 0);
}

// Installs the crash and exit() reports once per process.
void watch_plugin_calls() {
  static const bool installed = [] {
    for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, on_fatal_signal);
    std::atexit(on_exit_call);
    return true;
  }();
  (void)installed;
}

class PluginSource : public ScheduleSource {
 public:
  explicit PluginSource(const std::string& path) : path_(absolute(path)) {
    handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) throw std::runtime_error(std::string("cannot load plugin: ") + dlerror());
    const auto version = reinterpret_cast<int (*)()>(symbol("rosched_abi_version"));
    const auto name = reinterpret_cast<const char* (*)()>(symbol("rosched_construction_name"));
    recv_ = reinterpret_cast<Fn>(symbol("rosched_recv_schedule"));
    send_ = reinterpret_cast<Fn>(symbol("rosched_send_schedule"));
    watch_plugin_calls();
    current_call = {"rosched_abi_version", 0, 0};
    const int v = version();
    current_call = {"rosched_construction_name", 0, 0};
    const char* n = name();
    current_call = {};
    if (v != ROSCHED_CONSTRUCTION_ABI_VERSION) {
      throw std::runtime_error(path + ": ABI version " + std::to_string(v) + ", expected " +
                               std::to_string(ROSCHED_CONSTRUCTION_ABI_VERSION));
    }
    if (!n || !*n) throw std::runtime_error(path + ": rosched_construction_name() returned no name");
    name_ = n;
  }
  ~PluginSource() override { dlclose(handle_); }
  PluginSource(const PluginSource&) = delete;
  PluginSource& operator=(const PluginSource&) = delete;

  std::string name() const override { return name_; }
  std::string command_line() const override { return "--plugin " + path_; }

  std::optional<sim::Counterexample> build(const Skips& s, FullSchedule& f) const override {
    f.reset(s);
    // The plugin may write 32 entries; a guard zone after them catches writes past the end.
    constexpr int kEntries = 32, kGuard = 32;
    constexpr std::int32_t kUnwritten = INT32_MIN + 12345;
    std::int32_t out[kEntries + kGuard];
    const std::int64_t p = s.p();
    const int q = s.q();
    for (std::int64_t r = 0; r < p; ++r) {
      for (const auto& [fn, which] : {std::pair{recv_, "recv"}, std::pair{send_, "send"}}) {
        const char* function = which[0] == 'r' ? "rosched_recv_schedule" : "rosched_send_schedule";
        const auto fail = [&](const char* kind, std::int64_t round, const std::string& detail) {
          return sim::Counterexample{"construction", kind, p, r, round, 0, 0, detail, false};
        };
        std::fill(std::begin(out), std::end(out), kUnwritten);
        current_call = {function, p, r};
        const int rc = fn(p, r, out);
        current_call = {};
        if (rc != 0) return fail("plugin-error", -1, std::string(function) + " returned " + std::to_string(rc));
        for (int g = kEntries; g < kEntries + kGuard; ++g) {
          if (out[g] != kUnwritten) {
            return fail("wrote-past-32-entries", -1, std::string(function) + " wrote entry " + std::to_string(g));
          }
        }
        for (int k = 0; k < q; ++k) {
          std::int32_t block = out[k];
          if (block < -q || block >= q) {
            // The root's receives and the sends to the root are never used: anything goes.
            const bool unused = which[0] == 'r' ? r == 0 : s.to(r, k) == 0;
            if (!unused) {
              return fail("block-out-of-range", k,
                          std::string(function) + " returned " + which + "[" +
                              std::to_string(k) + "] = " + std::to_string(block) +
                              ", outside [-q, q) = [" + std::to_string(-q) + ", " +
                              std::to_string(q) + ")");
            }
            block = 0;
          }
          (which[0] == 'r' ? f.recv(r, k) : f.send(r, k)) = static_cast<std::int8_t>(block);
        }
      }
    }
    return std::nullopt;
  }

 private:
  using Fn = int (*)(std::int64_t, std::int64_t, std::int32_t*);
  void* symbol(const char* name) {
    void* sym = dlsym(handle_, name);
    if (!sym) throw std::runtime_error(path_ + ": missing symbol " + name);
    return sym;
  }
  std::string path_, name_;
  void* handle_ = nullptr;
  Fn recv_ = nullptr, send_ = nullptr;
};

}  // namespace

std::unique_ptr<ScheduleSource> builtin_source(Construction c, bool per_rank) {
  return std::make_unique<BuiltinSource>(c, per_rank);
}

std::unique_ptr<ScheduleSource> plugin_source(const std::string& path) {
  return std::make_unique<PluginSource>(path);
}

}  // namespace rosched::verify
