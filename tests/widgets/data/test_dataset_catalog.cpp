// DatasetCatalog: the seven standard sets, well-formed checksums, settings that match the
// files each yields, and the checksums of the reference copies in shared/data.

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include "widgets/data/dataset_catalog.h"

namespace {

using mrnn::widgets::ArchiveKind;
using mrnn::widgets::DatasetCatalog;
using mrnn::widgets::DatasetInfo;

QString fileSha256(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return QString();
  QCryptographicHash hash(QCryptographicHash::Sha256);
  hash.addData(&file);
  return QString::fromLatin1(hash.result().toHex());
}

}  // namespace

class DatasetCatalogTest : public QObject {
  Q_OBJECT

 private slots:
  void listsTheSevenStandardSets() {
    const DatasetCatalog catalog;
    QStringList ids;
    for (const DatasetInfo& info : catalog.datasets()) ids << info.id;
    QCOMPARE(ids, (QStringList{"tinyshakespeare", "ptb-char", "ptb-word", "text8", "enwik8",
                               "wikitext-2", "wikitext-103"}));
    QVERIFY(catalog.find(QStringLiteral("text8")));
    QVERIFY(!catalog.find(QStringLiteral("imagenet")));
  }

  void checksumsAreSha256HexOrAbsent() {
    const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    const DatasetCatalog catalog;
    for (const DatasetInfo& info : catalog.datasets()) {
      for (const auto& download : info.downloads) {
        QVERIFY2(download.sha256.isEmpty() || hex.match(download.sha256).hasMatch(),
                 qPrintable(info.id));
        QVERIFY(!download.urls.isEmpty());
        for (const QString& url : download.urls) QVERIFY(url.startsWith(QStringLiteral("http")));
      }
      for (const auto& file : info.files)
        QVERIFY2(file.sha256.isEmpty() || hex.match(file.sha256).hasMatch(), qPrintable(info.id));
      // Every set is checked somewhere: its downloads or, failing that, its files.
      QVERIFY2(info.isVerifiable(), qPrintable(info.id));
    }
  }

  void settingsNameFilesTheSetProvides() {
    const DatasetCatalog catalog;
    for (const DatasetInfo& info : catalog.datasets()) {
      QSet<QString> files;
      for (const auto& file : info.files) files.insert(file.path);
      QVERIFY2(files.contains(QString::fromStdString(info.data.train)), qPrintable(info.id));
      QCOMPARE(info.data.valid.empty(), info.data.test.empty());
      if (!info.data.valid.empty()) {
        QVERIFY(files.contains(QString::fromStdString(info.data.valid)));
        QVERIFY(files.contains(QString::fromStdString(info.data.test)));
      }
    }
    QCOMPARE(int(catalog.find("enwik8")->level), int(mrnn::engine::InputLevel::Byte));
    QCOMPARE(int(catalog.find("enwik8")->data.format), int(mrnn::engine::CorpusFormat::Raw));
    QCOMPARE(int(catalog.find("ptb-char")->data.format), int(mrnn::engine::CorpusFormat::PtbChar));
    QCOMPARE(int(catalog.find("wikitext-103")->level), int(mrnn::engine::InputLevel::Word));
    QCOMPARE(int(catalog.find("wikitext-2")->downloads.at(0).archive), int(ArchiveKind::Zip));
  }

  void referenceCopiesMatchTheCatalog() {
    const QDir shared(QStringLiteral(MRNN_SHARED_DIR "/data"));
    if (!shared.exists()) QSKIP("shared/data is not here");
    const DatasetCatalog catalog;
    const struct {
      const char* id;
      const char* fileInCatalog;
      const char* reference;
    } pairs[] = {
        {"tinyshakespeare", "input.txt", "tinyshakespeare/input.txt"},
        {"ptb-word", "ptb.train.txt", "ptb/ptb.train.txt"},
        {"ptb-word", "ptb.valid.txt", "ptb/ptb.valid.txt"},
        {"ptb-word", "ptb.test.txt", "ptb/ptb.test.txt"},
        {"ptb-char", "simple-examples/data/ptb.char.train.txt", "ptb/ptb.char.train.txt"},
        {"ptb-char", "simple-examples/data/ptb.char.valid.txt", "ptb/ptb.char.valid.txt"},
        {"ptb-char", "simple-examples/data/ptb.char.test.txt", "ptb/ptb.char.test.txt"},
    };
    for (const auto& pair : pairs) {
      const DatasetInfo* info = catalog.find(QString::fromLatin1(pair.id));
      QVERIFY(info);
      const QString reference = shared.filePath(QString::fromLatin1(pair.reference));
      bool found = false;
      for (const auto& file : info->files) {
        if (file.path != QLatin1String(pair.fileInCatalog)) continue;
        found = true;
        QCOMPARE(file.sha256, fileSha256(reference));
        QCOMPARE(file.size, QFileInfo(reference).size());
      }
      QVERIFY2(found, pair.fileInCatalog);
    }
  }

  void defaultDestinationIsADataFolder() {
    QCOMPARE(QFileInfo(DatasetCatalog::defaultDestination()).fileName(), QStringLiteral("data"));
  }
};

QTEST_GUILESS_MAIN(DatasetCatalogTest)
#include "test_dataset_catalog.moc"
