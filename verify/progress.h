// A progress indicator on stderr for long sweeps: on a terminal one line rewritten in place
// (done/total, rate, ETA), otherwise a plain line every `plain_interval` seconds.
// Thread-safe; work units let the ETA account for large p costing more than small p.
#ifndef ROSCHED_VERIFY_PROGRESS_H_
#define ROSCHED_VERIFY_PROGRESS_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>

namespace rosched::verify {

class Progress {
 public:
  Progress(std::int64_t total_items, double total_work, std::FILE* out, bool terminal,
           double plain_interval = 10.0);
  // One item of `work` units is done.
  void add(double work);
  // Clears the in-place line (terminal) so that the summary starts on a fresh line.
  void finish();

 private:
  void print(std::int64_t items, double work, double elapsed);

  const std::int64_t total_items_;
  const double total_work_;
  std::FILE* out_;
  const bool terminal_;
  const double interval_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mu_;
  std::int64_t items_ = 0;
  double work_ = 0;
  double last_print_ = 0;
  bool printed_ = false;
};

}  // namespace rosched::verify

#endif  // ROSCHED_VERIFY_PROGRESS_H_
