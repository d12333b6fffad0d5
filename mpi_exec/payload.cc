#include "mpi_exec/payload.h"

#include <stdlib.h>  // malloc and free unqualified: under smpicxx both are SMPI's macros

#include <new>

namespace rosched::mpi {

PayloadBuffer::PayloadBuffer(std::size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  data_ = static_cast<unsigned char*>(malloc(bytes));
  if (data_ == nullptr) throw std::bad_alloc();
}

PayloadBuffer::~PayloadBuffer() {
  if (data_ != nullptr) free(data_);
}

PayloadBuffer& PayloadBuffer::operator=(PayloadBuffer&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) free(data_);
    data_ = other.data_;
    size_ = other.size_;
    other.data_ = nullptr;
    other.size_ = 0;
  }
  return *this;
}

}  // namespace rosched::mpi
