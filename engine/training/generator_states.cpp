#include "engine/training/generator_states.h"

#include <ATen/Context.h>
#include <ATen/core/Generator.h>

#include "engine/training/data_parallel.h"

namespace mrnn::engine {

GeneratorStates generatorStatesOn(const torch::Device& device) {
  GeneratorStates states;
  states.cpu = at::detail::getDefaultCPUGenerator().get_state();
  if (!device.is_cpu()) states.gpu = at::globalContext().defaultGenerator(device).get_state();
  return states;
}

void restoreGeneratorStatesOn(const torch::Device& device, const GeneratorStates& states) {
  at::Generator cpu = at::detail::getDefaultCPUGenerator();  // a handle: shared state
  cpu.set_state(states.cpu);
  if (!device.is_cpu() && states.gpu.defined()) {
    at::Generator gpu = at::globalContext().defaultGenerator(device);
    gpu.set_state(states.gpu);
  }
}

GeneratorStates gatherRankGenerators(const torch::Device& device, Collective& collective) {
  const GeneratorStates mine = generatorStatesOn(device);
  GeneratorStates all;
  all.cpu = gatherGeneratorStates(mine.cpu, collective);
  if (!device.is_cpu()) all.gpu = gatherGeneratorStates(mine.gpu, collective);
  return all;
}

}  // namespace mrnn::engine
