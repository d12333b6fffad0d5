// Payload memory: buffers whose contents are only carried and combined (message data, the
// landing place of a received block, a reduction's accumulator), never read to decide what to
// do next.
//
// They come from malloc, not from operator new, on purpose. SimGrid's smpicxx force-includes
// smpi_helpers.h, which turns every malloc of the program into smpi_shared_malloc_intercept, so
// that a timing run with --cfg=smpi/auto-shared-malloc-thresh:N maps every payload buffer of N
// bytes or more onto memory that all simulated ranks share (scripts/simulate.sh sets N = 64 KiB):
// 1,152 ranks x 16 MiB then fit in this machine's memory, and SMPI does not copy such data. Their
// contents are garbage in such runs; their timing is not. operator new (std::vector and the
// like) is not intercepted. Outside SimGrid, and in runs without the setting (simulate.sh
// --check), this is plain malloc.
#ifndef ROSCHED_MPI_EXEC_PAYLOAD_H_
#define ROSCHED_MPI_EXEC_PAYLOAD_H_

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace rosched::mpi {

// `bytes` of payload memory, uninitialised, owned; throws std::bad_alloc when none is left.
class PayloadBuffer {
 public:
  PayloadBuffer() = default;
  explicit PayloadBuffer(std::size_t bytes);
  ~PayloadBuffer();
  PayloadBuffer(PayloadBuffer&& other) noexcept : data_(other.data_), size_(other.size_) {
    other.data_ = nullptr;
    other.size_ = 0;
  }
  PayloadBuffer& operator=(PayloadBuffer&& other) noexcept;
  PayloadBuffer(const PayloadBuffer&) = delete;
  PayloadBuffer& operator=(const PayloadBuffer&) = delete;

  unsigned char* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

// n elements of a trivially copyable T in payload memory: uninitialised, or all equal to `value`.
template <class T>
class PayloadArray {
  static_assert(std::is_trivially_copyable<T>::value, "payload is raw memory");

 public:
  explicit PayloadArray(std::size_t n) : buffer_(n * sizeof(T)), n_(n) {}
  PayloadArray(std::size_t n, T value) : PayloadArray(n) { std::fill(begin(), end(), value); }

  T* data() const { return reinterpret_cast<T*>(buffer_.data()); }
  std::size_t size() const { return n_; }
  T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() const { return data(); }
  T* end() const { return data() + n_; }

 private:
  PayloadBuffer buffer_;
  std::size_t n_;
};

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_PAYLOAD_H_
