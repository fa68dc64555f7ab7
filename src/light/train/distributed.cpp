#include "light/train/distributed.h"

#include <filesystem>

#include "light/error.h"

#ifdef LIGHT_HAVE_C10D
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#endif

namespace light::train {

#ifdef LIGHT_HAVE_C10D
struct DataParallel::Group {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> pg;
};
bool distributed_available() { return true; }
#else
struct DataParallel::Group {};
bool distributed_available() { return false; }
#endif

DataParallel::DataParallel(const DistributedOptions& o) : rank_(o.rank), world_(o.world_size) {
  if (world_ < 1) throw Error("--world-size: must be at least 1");
  if (rank_ < 0 || rank_ >= world_) throw Error("--rank: must be in 0.." + std::to_string(world_ - 1));
  if (world_ == 1) return;
  if (o.store.empty()) throw Error("--store: needed with --world-size > 1 (a fresh shared folder, or host:port)");
#ifdef LIGHT_HAVE_C10D
  group_ = std::make_unique<Group>();
  const auto colon = o.store.rfind(':');
  const bool tcp = colon != std::string::npos && colon + 1 < o.store.size() &&
                   o.store.find_first_not_of("0123456789", colon + 1) == std::string::npos && !std::filesystem::is_directory(o.store);
  try {
    if (tcp) {
      c10d::TCPStoreOptions so;
      so.port = static_cast<uint16_t>(std::stoi(o.store.substr(colon + 1)));
      so.isServer = rank_ == 0;
      so.numWorkers = static_cast<size_t>(world_);
      group_->store = c10::make_intrusive<c10d::TCPStore>(o.store.substr(0, colon), so);
    } else {
      std::filesystem::create_directories(o.store);
      group_->store = c10::make_intrusive<c10d::FileStore>((std::filesystem::path(o.store) / "c10d-store").string(), world_);
    }
    auto opts = c10d::ProcessGroupGloo::Options::create();
    opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname(tcp ? o.store.substr(0, colon) : "127.0.0.1"));
    group_->pg = c10::make_intrusive<c10d::ProcessGroupGloo>(group_->store, rank_, world_, opts);
  } catch (const std::exception& e) {
    throw Error("--store " + o.store + ": cannot form the group of " + std::to_string(world_) + " ranks: " + e.what());
  }
#else
  throw Error("--world-size > 1: this build of light has no distributed training (LibTorch without c10d/Gloo headers)");
#endif
}

DataParallel::~DataParallel() = default;

void DataParallel::all_reduce_sum(std::vector<double>& values) {
  if (world_ == 1 || values.empty()) return;
#ifdef LIGHT_HAVE_C10D
  std::vector<at::Tensor> t{torch::tensor(values, torch::kFloat64)};
  group_->pg->allreduce(t)->wait();
  for (size_t i = 0; i < values.size(); ++i) values[i] = t[0][static_cast<int64_t>(i)].item<double>();
#endif
}

void DataParallel::sum_gradients(torch::nn::Module& module) {
  if (world_ == 1) return;
#ifdef LIGHT_HAVE_C10D
  std::vector<torch::Tensor> params;
  for (auto& p : module.parameters())
    if (p.requires_grad()) params.push_back(p);
  const int64_t n = static_cast<int64_t>(params.size());
  int64_t total = n;  // one "has a gradient" flag per parameter first
  for (const auto& p : params) total += p.numel();
  torch::Tensor flat = torch::zeros({total}, torch::kFloat32);
  float* flags = flat.data_ptr<float>();
  int64_t off = n;
  for (int64_t i = 0; i < n; ++i) {
    const auto& p = params[static_cast<size_t>(i)];
    if (p.grad().defined()) {
      flags[i] = 1.0f;
      flat.slice(0, off, off + p.numel()).copy_(p.grad().detach().flatten().to(torch::kCPU, torch::kFloat32));
    }
    off += p.numel();
  }
  std::vector<at::Tensor> t{flat};
  group_->pg->allreduce(t)->wait();
  off = n;
  for (int64_t i = 0; i < n; ++i) {
    auto& p = params[static_cast<size_t>(i)];
    if (flags[i] > 0) {
      torch::Tensor g = flat.slice(0, off, off + p.numel()).view(p.sizes()).to(p.device(), p.scalar_type());
      if (p.grad().defined()) p.mutable_grad().copy_(g);
      else p.mutable_grad() = g.clone();
    }
    off += p.numel();
  }
#else
  (void)module;
#endif
}

void DataParallel::broadcast_parameters(torch::nn::Module& module) {
  if (world_ == 1) return;
#ifdef LIGHT_HAVE_C10D
  torch::NoGradGuard no_grad;
  for (auto& p : module.parameters()) {
    std::vector<at::Tensor> t{p.detach().to(torch::kCPU).contiguous()};
    group_->pg->broadcast(t)->wait();
    p.copy_(t[0]);
  }
#else
  (void)module;
#endif
}

void DataParallel::barrier() {
  if (world_ == 1) return;
#ifdef LIGHT_HAVE_C10D
  group_->pg->barrier()->wait();
#endif
}

}  // namespace light::train
