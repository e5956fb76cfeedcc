#include "widgets/composer/composer_block.h"

#include <QLocale>
#include <QRegularExpression>
#include <optional>

#include "engine/config/config_error.h"
#include "engine/config/device_name.h"
#include "engine/config/model_check.h"
#include "engine/config/parameter_count.h"
#include "engine/config/training_memory.h"
#include "engine/runtime/machine_resources.h"
#include "widgets/composer/cell_catalogue.h"

namespace mrnn::widgets {
namespace {

using engine::CellType;

const QString kDot = QStringLiteral(" · ");

QString number(double value) {
  return QString::number(value, 'g', 3);
}

QString levelName(engine::InputLevel level) {
  return QString::fromStdString(engine::inputLevelName(level));
}

ComposerBlock inputBlock(const engine::ModelConfig& model, int64_t vocab) {
  ComposerBlock block;
  block.kind = ComposerBlock::Kind::Input;
  block.title = QObject::tr("Input");
  const engine::InputConfig& input = model.input;
  QStringList detail{QObject::tr("%1 level").arg(levelName(input.level))};
  detail << (input.embeddingSize > 0 ? QObject::tr("embedding %1").arg(input.embeddingSize)
                                     : QObject::tr("one-hot"));
  detail << (vocab > 0 ? QObject::tr("vocabulary %1").arg(formatCount(vocab))
                       : QObject::tr("vocabulary from the corpus"));
  block.detail = detail.join(kDot);
  QStringList extra;
  if (model.dropout.embedding > 0)
    extra << QObject::tr("embedding dropout %1").arg(number(model.dropout.embedding));
  if (model.dropout.token > 0)
    extra << QObject::tr("token dropout %1").arg(number(model.dropout.token));
  block.extra = extra.join(kDot);
  block.inputWidth = vocab > 0 ? vocab : -1;
  block.outputWidth = input.embeddingSize > 0 ? input.embeddingSize : (vocab > 0 ? vocab : -1);
  if (input.embeddingSize == 0) {
    block.parameters = 0;
  } else if (vocab > 0) {
    block.parameters = vocab * input.embeddingSize;
  }
  block.toolTip = QObject::tr(
                      "<b>Input</b><br>%1<br><br><i>Click to edit the input level, "
                      "embedding, input dropouts and seed.</i>")
                      .arg(inputEquations(input).toHtmlEscaped().replace('\n', "<br>"));
  return block;
}

ComposerBlock layerBlock(const engine::ModelConfig& model, size_t index, int64_t width,
                         int64_t inputWidth) {
  const engine::LayerConfig& layer = model.layers[index];
  ComposerBlock block;
  block.kind = ComposerBlock::Kind::Layer;
  block.layer = static_cast<int>(index);
  block.cellType = layer.type;
  block.title = QObject::tr("Layer %1").arg(index + 1) + kDot + cellDisplayName(layer.type);
  QStringList detail{QObject::tr("H %1").arg(layer.hiddenSize)};
  if (engine::hasIntermediateState(layer.type)) {
    detail << QStringLiteral("%1 %2")
                  .arg(layer.type == CellType::Mrnn ? QStringLiteral("F") : QStringLiteral("M"))
                  .arg(layer.intermediateSize());
  }
  if (layer.type == CellType::Mogrifier) {
    detail << QObject::tr("r %1").arg(layer.rounds)
           << QObject::tr("k %1").arg(layer.rank > 0 ? QString::number(layer.rank)
                                                     : QObject::tr("full"));
  }
  if (layer.type == CellType::Mmlstm) {
    detail << QObject::tr("major %1 / minor %2").arg(layer.majorSize()).arg(layer.minorSize());
  }
  block.detail = detail.join(kDot);
  QStringList extra;
  if (engine::isLstmFamily(layer.type) && layer.outputGate == engine::OutputGate::Inside)
    extra << QObject::tr("output gate inside");
  if (layer.type == CellType::Mogrifier && !layer.zigzag) extra << QObject::tr("no zigzag");
  if (layer.type == CellType::Mmlstm && layer.minorInput == engine::MinorInput::Below)
    extra << QObject::tr("minor reads below");
  if (layer.weightDrop > 0) extra << QObject::tr("weight drop %1").arg(number(layer.weightDrop));
  if (layer.weightNorm) extra << QObject::tr("weight norm");
  block.extra = extra.join(kDot);
  block.inputWidth = width > 0 ? width : -1;
  block.outputWidth = layer.hiddenSize;
  if (width > 0 && inputWidth > 0) {
    block.parameters = engine::cellParameterCount(layer, width, inputWidth);
  }
  block.toolTip = cellToolTip(layer.type);
  return block;
}

ComposerBlock outputBlock(const engine::ModelConfig& model, int64_t vocab) {
  const engine::OutputConfig& output = model.output;
  ComposerBlock block;
  block.kind = ComposerBlock::Kind::Output;
  const bool softmax = output.kind == engine::OutputKind::Softmax;
  const bool linear = output.kind == engine::OutputKind::Linear;
  block.title = QObject::tr("Output") + kDot +
                (linear    ? QObject::tr("linear")
                 : softmax ? QObject::tr("softmax")
                           : QObject::tr("Mixture of Softmaxes"));
  QStringList detail;
  if (linear) {
    detail << (output.size == 1 ? QObject::tr("1 real output, squared error")
                                : QObject::tr("%1 real outputs, squared error").arg(output.size));
  } else if (!softmax) {
    detail << QObject::tr("%1 components").arg(output.mixtures);
    if (output.latentSize > 0) detail << QObject::tr("latent %1").arg(output.latentSize);
  }
  if (!linear) {
    detail << (output.tieEmbeddings ? QObject::tr("tied to the embedding") : QObject::tr("untied"));
  }
  block.detail = detail.join(kDot);
  if (model.dropout.output > 0)
    block.extra = QObject::tr("output dropout %1").arg(number(model.dropout.output));
  block.inputWidth = model.layers.empty() ? -1 : model.layers.back().hiddenSize;
  block.outputWidth = vocab > 0 ? vocab : -1;
  block.toolTip = QObject::tr("<b>Output</b><br>%1")
                      .arg(outputEquations(output).toHtmlEscaped().replace('\n', "<br>"));
  return block;
}

// Block index of a parser key such as "model.layers[1].rank"; -1 when it names no block.
int blockOfKey(const QString& key, int layerCount) {
  static const QRegularExpression layerKey(QStringLiteral("^(?:model\\.)?layers\\[(\\d+)\\]"));
  const QRegularExpressionMatch match = layerKey.match(key);
  if (match.hasMatch()) {
    const int layer = match.captured(1).toInt();
    return layer < layerCount ? layer + 1 : -1;
  }
  if (key.startsWith(QStringLiteral("model.input")) || key.startsWith(QStringLiteral("input")))
    return 0;
  if (key.startsWith(QStringLiteral("model.output")) || key.startsWith(QStringLiteral("output")))
    return layerCount + 1;
  return -1;
}

QString blockName(int block, int layerCount) {
  if (block == 0) return QObject::tr("Input");
  if (block == layerCount + 1) return QObject::tr("Output");
  return QObject::tr("Layer %1").arg(block);
}

// A run of `project` that would not fit the machine's `availableBytes` (the trainer refuses it
// at Start with the same estimate): the widest layer marked, the sizes to change named.
std::optional<ComposerProblem> memoryProblem(const engine::Project& project, int64_t vocab,
                                             uint64_t availableBytes) {
  const engine::ModelConfig& model = project.model;
  const int64_t parameters = engine::summarizeModel(model, vocab).totalParameters;
  const bool onGpu = engine::namesCudaDevice(project.training.device);
  const double bytes = engine::hostTrainingBytes(model, parameters, vocab, project.training, onGpu);
  if (bytes <= static_cast<double>(availableBytes)) return std::nullopt;
  ComposerProblem problem;
  size_t widest = 0;
  for (size_t i = 0; i < model.layers.size(); ++i) {
    if (model.layers[i].hiddenSize > model.layers[widest].hiddenSize) widest = i;
  }
  if (!model.layers.empty()) problem.blocks.push_back(static_cast<int>(widest) + 1);
  problem.where = QObject::tr("Model");
  const QString needed = QString::fromStdString(engine::formatBytes(bytes));
  const QString here =
      QString::fromStdString(engine::formatBytes(static_cast<double>(availableBytes)));
  problem.reason = onGpu
                       ? QObject::tr(
                             "training it on a GPU needs about %1 of this machine's memory for its "
                             "weights, made here before they move; it has %2 available: make the "
                             "layers smaller")
                             .arg(needed, here)
                       : QObject::tr(
                             "training it needs about %1 of memory; this machine has %2 available: "
                             "make the layers smaller, or the batch or BPTT shorter")
                             .arg(needed, here);
  return problem;
}

}  // namespace

std::vector<ComposerBlock> describeBlocks(const engine::ModelConfig& model, int64_t vocab) {
  std::vector<ComposerBlock> blocks;
  blocks.push_back(inputBlock(model, vocab));
  const int64_t inputWidth = model.inputWidth(vocab);
  int64_t width = inputWidth;
  for (size_t i = 0; i < model.layers.size(); ++i) {
    blocks.push_back(layerBlock(model, i, width, inputWidth));
    width = model.layers[i].hiddenSize;
  }
  blocks.push_back(outputBlock(model, vocab));
  // The same numbers as `mrnn model describe` and the summary panel when all are known.
  if (vocab > 0 && !model.layers.empty()) {
    const engine::ModelSummary summary = engine::summarizeModel(model, vocab);
    for (size_t i = 0; i < blocks.size() && i < summary.rows.size(); ++i) {
      blocks[i].parameters = summary.rows[i].parameters;
    }
  }
  return blocks;
}

std::vector<ComposerProblem> diagnoseProject(const engine::Project& project, int64_t vocab,
                                             uint64_t availableBytes) {
  std::vector<ComposerProblem> problems;
  const engine::ModelConfig& model = project.model;
  const int layerCount = static_cast<int>(model.layers.size());
  for (const engine::ModelProblem& found : engine::checkModel(model, vocab)) {
    ComposerProblem problem;
    problem.key = QString::fromStdString(found.key);
    problem.reason = QString::fromStdString(found.reason);
    const int keyBlock = blockOfKey(problem.key, layerCount);
    if (keyBlock >= 0) problem.blocks.push_back(keyBlock);
    // A problem of the output that a layer's width causes marks that layer as well.
    if (found.layer >= 0 && found.layer + 1 != keyBlock) problem.blocks.push_back(found.layer + 1);
    problem.where = problem.blocks.empty() ? QObject::tr("Model")
                                           : blockName(problem.blocks.front(), layerCount);
    problems.push_back(problem);
  }
  if (!problems.empty()) return problems;

  // What the parser rejects beyond checkModel (ranges, combinations with the data section).
  try {
    engine::parseProject(engine::projectToYaml(project));
  } catch (const engine::ConfigError& error) {
    ComposerProblem problem;
    problem.key = QString::fromStdString(error.key());
    problem.reason = QString::fromStdString(error.message());
    const int block = blockOfKey(problem.key, layerCount);
    if (block >= 0) problem.blocks.push_back(block);
    problem.where = block >= 0 ? blockName(block, layerCount)
                               : (problem.key.isEmpty() ? QObject::tr("Project") : problem.key);
    problems.push_back(problem);
  } catch (const std::exception& error) {
    problems.push_back({{}, QObject::tr("Project"), QString(), QString::fromUtf8(error.what())});
  }
  // bf16 is CUDA's autocast: on a CPU the trainer would refuse it at Start, so say so here,
  // where the device list is one click away.
  if (problems.empty() && project.training.bf16 &&
      !engine::namesCudaDevice(project.training.device)) {
    problems.push_back({{},
                        QObject::tr("Training"),
                        QStringLiteral("training.bf16"),
                        QObject::tr("bf16 autocast needs a GPU: choose one in the training "
                                    "panel's device list, or set bf16: false")});
  }
  if (problems.empty() && availableBytes > 0 && vocab > 0) {
    if (auto tooLarge = memoryProblem(project, vocab, availableBytes)) {
      problems.push_back(std::move(*tooLarge));
    }
  }
  return problems;
}

void markProblems(std::vector<ComposerBlock>& blocks,
                  const std::vector<ComposerProblem>& problems) {
  for (const ComposerProblem& problem : problems) {
    for (int index : problem.blocks) {
      if (index >= 0 && index < static_cast<int>(blocks.size())) {
        blocks[static_cast<size_t>(index)].problems << problem.reason;
      }
    }
  }
}

QString summarizeProblems(const std::vector<ComposerProblem>& problems) {
  QStringList lines;
  for (const ComposerProblem& problem : problems) {
    lines << QStringLiteral("%1: %2").arg(problem.where, problem.reason);
  }
  return lines.join('\n');
}

}  // namespace mrnn::widgets
