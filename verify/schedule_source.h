// Where the verifier gets a whole schedule from: a construction of this project, or a foreign
// one loaded from a shared object through the C ABI of construction_abi.h.
#ifndef ROSCHED_VERIFY_SCHEDULE_SOURCE_H_
#define ROSCHED_VERIFY_SCHEDULE_SOURCE_H_

#include <memory>
#include <optional>
#include <string>

#include "sched/circulant/full_schedule.h"
#include "sched/circulant/phase_schedule.h"
#include "sim/counterexample.h"

namespace rosched::verify {

class ScheduleSource {
 public:
  virtual ~ScheduleSource() = default;
  virtual std::string name() const = 0;
  // Options that select this source again on the command line, e.g. "--construction paper".
  virtual std::string command_line() const = 0;
  // The schedule of all ranks, into f (reset to s, its storage reused), or what was wrong with
  // what the construction returned (an error code, a block outside [-q, q), writes past the
  // 32 entries). Must be safe to call from several threads at once (with different f).
  virtual std::optional<sim::Counterexample> build(const Skips& s, FullSchedule& f) const = 0;
};

// A construction of this project: its schedule of all ranks as full_schedule() computes it
// (what an irregular all-gather runs), or with per_rank every rank's receive and send schedule
// computed independently, as each process of a broadcast does (rank_schedule()).
std::unique_ptr<ScheduleSource> builtin_source(Construction c, bool per_rank = false);

// A foreign construction: dlopen()s path and checks its ABI version and name. Receive and send
// schedules both come from the plugin. Throws std::runtime_error with dlerror() on failure.
// While it runs, a crash of the plugin (a fatal signal) or a call of exit() from it ends the
// verifier with exit status 1 and a line naming the function, p and rank.
std::unique_ptr<ScheduleSource> plugin_source(const std::string& path);

}  // namespace rosched::verify

#endif  // ROSCHED_VERIFY_SCHEDULE_SOURCE_H_
