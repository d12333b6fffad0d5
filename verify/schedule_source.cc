#include "verify/schedule_source.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <cstdlib>

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
  void build(const Skips& s, FullSchedule& f) const override {
    if (per_rank_) {
      f = full_schedule_per_rank(s, c_);
    } else {
      full_schedule(s, c_, f);
    }
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

class PluginSource : public ScheduleSource {
 public:
  explicit PluginSource(const std::string& path) : path_(absolute(path)) {
    handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) throw std::runtime_error(std::string("cannot load plugin: ") + dlerror());
    const auto version = reinterpret_cast<int (*)()>(symbol("rosched_abi_version"));
    const auto name = reinterpret_cast<const char* (*)()>(symbol("rosched_construction_name"));
    recv_ = reinterpret_cast<Fn>(symbol("rosched_recv_schedule"));
    send_ = reinterpret_cast<Fn>(symbol("rosched_send_schedule"));
    if (version() != ROSCHED_CONSTRUCTION_ABI_VERSION) {
      throw std::runtime_error(path + ": ABI version " + std::to_string(version()) +
                               ", expected " + std::to_string(ROSCHED_CONSTRUCTION_ABI_VERSION));
    }
    name_ = name();
  }
  ~PluginSource() override { dlclose(handle_); }
  PluginSource(const PluginSource&) = delete;
  PluginSource& operator=(const PluginSource&) = delete;

  std::string name() const override { return name_; }
  std::string command_line() const override { return "--plugin " + path_; }

  void build(const Skips& s, FullSchedule& f) const override {
    f.reset(s);
    std::int32_t out[32];
    for (std::int64_t r = 0; r < s.p(); ++r) {
      for (const auto& [fn, which] : {std::pair{recv_, "recv"}, std::pair{send_, "send"}}) {
        if (fn(s.p(), r, out) != 0) {
          throw std::runtime_error(name_ + ": rosched_" + which + "_schedule failed for p = " +
                                   std::to_string(s.p()) + ", rank " + std::to_string(r));
        }
        for (int k = 0; k < s.q(); ++k) {
          // Out-of-range values are kept recognisably out of range (the checker rejects them).
          const std::int32_t v = out[k] < -64 ? -64 : out[k] > 63 ? 63 : out[k];
          (which[0] == 'r' ? f.recv(r, k) : f.send(r, k)) = static_cast<std::int8_t>(v);
        }
      }
    }
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
