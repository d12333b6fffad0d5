#include "sched/bruck/bruck_engine.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace rosched {
namespace {

using B = BruckBuffer;

void check_blocks(const std::vector<std::int64_t>& offset, const std::vector<std::int64_t>& size,
                  std::int64_t p, std::int64_t n, const char* what) {
  if (static_cast<std::int64_t>(offset.size()) != p || static_cast<std::int64_t>(size.size()) != p) {
    throw std::invalid_argument(std::string("BruckEngine: ") + what + " offsets and sizes need " +
                                std::to_string(p) + " entries");
  }
  for (std::int64_t j = 0; j < p; ++j) {
    if (size[j] < 0 || size[j] > n) {
      throw std::invalid_argument(std::string("BruckEngine: ") + what + " block " +
                                  std::to_string(j) + " has " + std::to_string(size[j]) +
                                  " bytes, outside [0, " + std::to_string(n) + "]");
    }
  }
}

}  // namespace

std::string BruckMismatch::describe() const {
  return "the block from rank " + std::to_string(source) + " has " + std::to_string(actual) +
         " bytes, the receive count asks for " + std::to_string(expected) + " (step " +
         std::to_string(step) + ")";
}

BruckEngine::BruckEngine(const BruckPlan& plan, std::int64_t rank, BruckBlocks blocks,
                         std::int64_t max_block)
    : plan_(plan), rank_(rank), p_(plan.schedule().p()), n_(max_block), blocks_(std::move(blocks)) {
  if (rank < 0 || rank >= p_) {
    throw std::invalid_argument("BruckEngine: rank = " + std::to_string(rank) +
                                " is outside [0, " + std::to_string(p_) + ")");
  }
  if (n_ < 0) throw std::invalid_argument("BruckEngine: max_block is negative");
  check_blocks(blocks_.send_offset, blocks_.send_size, p_, n_, "send");
  // Receive counts are only compared with the arriving blocks (a mismatch is error()).
  check_blocks(blocks_.recv_offset, blocks_.recv_size, p_, INT64_MAX, "receive");
  if (!bruck_nonuniform(plan.variant())) {  // uniform: every block N bytes
    for (std::int64_t j = 0; j < p_; ++j) {
      if (blocks_.send_size[j] != n_ || blocks_.recv_size[j] != n_) {
        throw std::invalid_argument("BruckEngine: variant " + bruck_variant_name(plan.variant()) +
                                    " needs every block of " + std::to_string(n_) + " bytes");
      }
    }
  }
  const auto slots = static_cast<std::size_t>(p_ * n_);
  if (plan_.variant() == BruckVariant::kPadded) padded_.assign(slots, 0);
  if (plan_.uses(B::kWork)) work_.assign(slots, 0), work_size_.assign(p_, 0);
  if (plan_.uses(B::kTemp)) temp_.assign(slots, 0), temp_size_.assign(p_, 0);
}

BruckEngine::Region BruckEngine::region(const BruckLoc& loc) const {
  const std::int64_t j = plan_.slot(loc, rank_);
  switch (loc.buffer) {
    case B::kSend:
      if (!padded_.empty() || plan_.variant() == BruckVariant::kPadded) {
        return {const_cast<char*>(padded_.data()) + j * n_, n_};
      }
      // Never written through: store() refuses the send buffer.
      return {const_cast<char*>(blocks_.send_base) + blocks_.send_offset[j], blocks_.send_size[j]};
    case B::kRecv: return {blocks_.recv_base + blocks_.recv_offset[j], blocks_.recv_size[j]};
    case B::kWork: return {const_cast<char*>(work_.data()) + j * n_, work_size_[j]};
    case B::kTemp: return {const_cast<char*>(temp_.data()) + j * n_, temp_size_[j]};
  }
  throw std::logic_error("BruckEngine::region: unknown buffer");
}

void BruckEngine::written(const BruckLoc& loc, std::int64_t bytes) {
  const std::int64_t j = plan_.slot(loc, rank_);
  if (loc.buffer == B::kWork) work_size_[j] = bytes;
  if (loc.buffer == B::kTemp) temp_size_[j] = bytes;
}

void BruckEngine::store(const BruckLoc& to, const char* data, std::int64_t bytes,
                        std::int64_t step, std::int64_t source) {
  if (to.buffer == B::kSend) throw std::logic_error("BruckEngine: a plan writes the send buffer");
  Region r = region(to);
  if (to.buffer == B::kRecv) {
    // Padded: every slot is N bytes; keep the receiver's count (the unpadding).
    const bool padded = plan_.variant() == BruckVariant::kPadded;
    if (padded ? r.bytes > bytes : r.bytes != bytes) {
      if (!error_) error_ = BruckMismatch{step, source, r.bytes, bytes};
      return;
    }
    bytes = r.bytes;
  } else if (bytes > n_) {
    throw std::invalid_argument("BruckEngine: a block of " + std::to_string(bytes) +
                                " bytes exceeds the largest block " + std::to_string(n_));
  }
  if (bytes > 0) std::memmove(r.data, data, static_cast<std::size_t>(bytes));
  written(to, bytes);
}

void BruckEngine::copy(const BruckLoc& from, const BruckLoc& to, std::int64_t step) {
  const Region r = region(from);
  store(to, r.data, r.bytes, step, plan_.slot(to, rank_));
}

void BruckEngine::start() {
  if (!padded_.empty()) {
    for (std::int64_t d = 0; d < p_; ++d) {
      if (blocks_.send_size[d] > 0) {
        std::memcpy(padded_.data() + d * n_, blocks_.send_base + blocks_.send_offset[d],
                    static_cast<std::size_t>(blocks_.send_size[d]));
      }
    }
  }
  for (std::int64_t k = 0; k < plan_.pre_copies(); ++k) {
    const BruckCopy c = plan_.pre_copy(k);
    copy(c.from, c.to, -1);
  }
}

std::vector<std::int64_t> BruckEngine::sizes(std::int64_t t) const {
  const BruckSchedule& s = plan_.schedule();
  const BruckStep step = s.step(t);
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(s.moved_count(step)));
  s.for_each_moved(step, [&](std::int64_t i) { out.push_back(region(plan_.read(i, step)).bytes); });
  return out;
}

std::vector<std::int64_t> BruckEngine::fixed_sizes(std::int64_t t) const {
  const BruckSchedule& s = plan_.schedule();
  return std::vector<std::int64_t>(static_cast<std::size_t>(s.moved_count(s.step(t))), n_);
}

void BruckEngine::pack(std::int64_t t, std::vector<char>& out) const {
  const BruckSchedule& s = plan_.schedule();
  const BruckStep step = s.step(t);
  std::int64_t total = 0;
  s.for_each_moved(step, [&](std::int64_t i) { total += region(plan_.read(i, step)).bytes; });
  out.resize(static_cast<std::size_t>(total));
  std::int64_t at = 0;
  s.for_each_moved(step, [&](std::int64_t i) {
    const Region r = region(plan_.read(i, step));
    if (r.bytes > 0) std::memcpy(out.data() + at, r.data, static_cast<std::size_t>(r.bytes));
    at += r.bytes;
  });
}

void BruckEngine::unpack(std::int64_t t, const std::vector<std::int64_t>& sizes, const char* data,
                         std::int64_t bytes) {
  const BruckSchedule& s = plan_.schedule();
  const BruckStep step = s.step(t);
  if (static_cast<std::int64_t>(sizes.size()) != s.moved_count(step)) {
    throw std::invalid_argument("BruckEngine::unpack: " + std::to_string(sizes.size()) +
                                " sizes for " + std::to_string(s.moved_count(step)) + " blocks");
  }
  std::int64_t total = 0;
  for (const std::int64_t z : sizes) {
    if (z < 0 || z > n_) {
      throw std::invalid_argument("BruckEngine::unpack: a block size " + std::to_string(z) +
                                  " outside [0, " + std::to_string(n_) + "]");
    }
    total += z;
  }
  if (total != bytes) {
    throw std::invalid_argument("BruckEngine::unpack: " + std::to_string(bytes) +
                                " bytes received, the sizes say " + std::to_string(total));
  }
  std::int64_t at = 0;
  std::size_t j = 0;
  s.for_each_moved(step, [&](std::int64_t i) {
    const BruckLoc to = plan_.write(i, step);
    store(to, data + at, sizes[j], t, plan_.slot(to, rank_));
    at += sizes[j++];
  });
}

void BruckEngine::finish() {
  for (std::int64_t k = 0; k < plan_.post_copies(); ++k) {
    const BruckCopy c = plan_.post_copy(k);
    copy(c.from, c.to, plan_.schedule().steps());
  }
}

}  // namespace rosched
