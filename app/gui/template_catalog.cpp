#include "app/gui/template_catalog.h"

#include <algorithm>
#include <exception>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "engine/config/project_file.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"

namespace mrnn::app {
namespace {

const QString kDefaultTemplate = QStringLiteral("quick-mlstm");

}  // namespace

TemplateCatalog::TemplateCatalog(QStringList directories) {
  for (const QString& directory : directories) {
    if (QFileInfo(directory).isDir()) {
      directory_ = QDir(directory).absolutePath();
      break;
    }
  }
}

TemplateCatalog TemplateCatalog::standard() {
  const QString installed = QDir(QCoreApplication::applicationDirPath())
                                .filePath(QStringLiteral("../share/mrnn/projects"));
  return TemplateCatalog({QStringLiteral(MRNN_SOURCE_PROJECTS_DIR), QDir::cleanPath(installed)});
}

QList<ProjectTemplate> TemplateCatalog::templates() const {
  QList<ProjectTemplate> out;
  if (directory_.isEmpty()) return out;
  const QDir root(directory_);
  for (const QString& name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
    const QString path = root.filePath(name + QStringLiteral("/project.yaml"));
    if (!QFileInfo::exists(path)) continue;
    try {
      const engine::Project project = engine::loadProject(widgets::toNativePath(path));
      out.append({name, QString::fromStdString(project.name),
                  QString::fromStdString(project.description).trimmed(), path});
    } catch (const std::exception&) {
      // A broken template is not offered; the template test keeps them all parsing.
    }
  }
  std::sort(out.begin(), out.end(), [](const ProjectTemplate& a, const ProjectTemplate& b) {
    return a.name.localeAwareCompare(b.name) < 0;
  });
  return out;
}

QString TemplateCatalog::defaultProject(const QString& userFolder) const {
  const QString target =
      QDir(userFolder).filePath(kDefaultTemplate + QStringLiteral("/project.yaml"));
  if (QFileInfo::exists(target)) return target;
  const QString source = starterTemplate();
  if (source.isEmpty()) return QString();
  if (!QDir().mkpath(QFileInfo(target).absolutePath())) return QString();
  // Through the document, so relative data paths still name the template's files.
  try {
    widgets::ProjectDocument document;
    document.loadTemplate(source);
    document.saveAs(target);
  } catch (const std::exception&) {
    return QString();
  }
  return target;
}

QString TemplateCatalog::starterTemplate() const {
  const QString source =
      QDir(directory_).filePath(kDefaultTemplate + QStringLiteral("/project.yaml"));
  if (directory_.isEmpty() || !QFileInfo::exists(source)) return QString();
  return source;
}

}  // namespace mrnn::app
