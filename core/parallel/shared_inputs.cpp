#include "core/parallel/shared_inputs.hpp"

#include <string>

#include "core/parallel/process_group.hpp"

namespace tco {

void share_root_inputs(InputRecording& recording) {
  InputSnapshot recorded = recording.take();
  if (process_count() == 1) return;
  std::string bytes = is_root_process() ? recorded.encode() : std::string();
  broadcast_bytes(bytes);
  install_input_snapshot(InputSnapshot::decode(bytes));
}

}  // namespace tco
