// DatasetDownloader against a local HTTP server on 127.0.0.1: full download with its sha256,
// a wrong checksum, cancel and resume with Range, a server that ignores Range, connection
// refused, 404, a mirror after a failing address, files already in place, unpacking a .tgz and
// a download without a published checksum; and the user's own files in the folder, which are
// never deleted nor overwritten.

#include <fcntl.h>
#include <sys/stat.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QVector>

#include "local_http_server.h"
#include "widgets/data/dataset_downloader.h"

namespace {

using mrnn::widgets::ArchiveKind;
using mrnn::widgets::DatasetDownload;
using mrnn::widgets::DatasetDownloader;
using mrnn::widgets::DatasetInfo;

constexpr int kWaitMs = 20000;
constexpr qint64 kBodySize = 3 * 1024 * 1024 + 123;  // not a multiple of any chunk size

// Deterministic bytes that are not all alike, so any misplaced piece changes the checksum.
QByteArray makeBody(qint64 size) {
  QByteArray body(size, Qt::Uninitialized);
  quint32 state = 12345;
  for (qint64 i = 0; i < size; ++i) {
    state = state * 1664525u + 1013904223u;
    body[i] = static_cast<char>(state >> 24);
  }
  return body;
}

QString sha256(const QByteArray& bytes) {
  return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& bytes) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(bytes);
}

quint32 crc32(const QByteArray& bytes) {
  quint32 crc = 0xFFFFFFFFu;
  for (const char byte : bytes) {
    crc ^= static_cast<quint8>(byte);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

void put16(QByteArray& out, quint32 value) {
  out.append(static_cast<char>(value & 0xFF));
  out.append(static_cast<char>((value >> 8) & 0xFF));
}

void put32(QByteArray& out, quint32 value) {
  put16(out, value & 0xFFFF);
  put16(out, value >> 16);
}

// A zip archive with the entries stored uncompressed (method 0), as `unzip` reads them.
QByteArray makeZip(const QVector<QPair<QByteArray, QByteArray>>& entries) {
  QByteArray zip;
  QByteArray directory;
  for (const auto& [name, data] : entries) {
    const auto offset = static_cast<quint32>(zip.size());
    const quint32 crc = crc32(data);
    const auto size = static_cast<quint32>(data.size());
    put32(zip, 0x04034b50);  // local file header
    put16(zip, 20);
    put16(zip, 0);
    put16(zip, 0);
    put16(zip, 0);     // time
    put16(zip, 0x21);  // date: 1980-01-01
    put32(zip, crc);
    put32(zip, size);
    put32(zip, size);
    put16(zip, static_cast<quint32>(name.size()));
    put16(zip, 0);
    zip += name + data;
    put32(directory, 0x02014b50);  // central directory entry
    put16(directory, 20);
    put16(directory, 20);
    put16(directory, 0);
    put16(directory, 0);
    put16(directory, 0);
    put16(directory, 0x21);
    put32(directory, crc);
    put32(directory, size);
    put32(directory, size);
    put16(directory, static_cast<quint32>(name.size()));
    put16(directory, 0);
    put16(directory, 0);
    put16(directory, 0);
    put16(directory, 0);
    put32(directory, 0);
    put32(directory, offset);
    directory += name;
  }
  const auto directoryOffset = static_cast<quint32>(zip.size());
  zip += directory;
  put32(zip, 0x06054b50);  // end of central directory
  put16(zip, 0);
  put16(zip, 0);
  put16(zip, static_cast<quint32>(entries.size()));
  put16(zip, static_cast<quint32>(entries.size()));
  put32(zip, static_cast<quint32>(directory.size()));
  put32(zip, directoryOffset);
  put16(zip, 0);
  return zip;
}

// New contents with the file's old modification time, as damage on disk would leave it.
void rewriteKeepingTime(const QString& path, const QByteArray& bytes) {
  struct stat before {};
  QVERIFY(::stat(QFile::encodeName(path).constData(), &before) == 0);
  writeFile(path, bytes);
  const struct timespec times[2] = {before.st_atim, before.st_mtim};
  QVERIFY(::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, 0) == 0);
}

// `files` (names inside `top`) packed by `tar` as a .tgz of the folder `top`.
QByteArray packTarGz(const QString& tar, const QString& top,
                     const QVector<QPair<QString, QByteArray>>& files) {
  QTemporaryDir staging;
  for (const auto& [name, bytes] : files) writeFile(staging.filePath(top + '/' + name), bytes);
  const QString archivePath = staging.filePath(QStringLiteral("packed.tgz"));
  if (QProcess::execute(tar, {"-czf", archivePath, "-C", staging.path(), top}) != 0) return {};
  return readAll(archivePath);
}

// A data set of one archive; the test names its files.
DatasetInfo packedDataset(const DatasetDownload& download) {
  DatasetInfo info;
  info.id = QStringLiteral("testset");
  info.name = QStringLiteral("Packed set");
  info.downloads = QList<DatasetDownload>{download};
  return info;
}

DatasetInfo plainDataset(const QStringList& urls, const QString& checksum, qint64 size) {
  DatasetInfo info;
  info.id = QStringLiteral("testset");
  info.name = QStringLiteral("Test set");
  info.downloads = {{urls, QStringLiteral("data.bin"), checksum, size, ArchiveKind::None, {}}};
  info.files = {{QStringLiteral("data.bin"), checksum, size}};
  info.data.train = "data.bin";
  return info;
}

}  // namespace

class DatasetDownloaderTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    body_ = makeBody(kBodySize);
    server_ = std::make_unique<LocalHttpServer>();
    server_->addFile("/data.bin", body_);
    QVERIFY(server_->listen());
    QVERIFY(destination_.isValid());
    folder_ = QDir(destination_.path()).filePath(QStringLiteral("testset"));
    QDir(folder_).removeRecursively();
  }
  void cleanup() { server_.reset(); }

  void fullDownloadMatchesChecksum() {
    DatasetDownloader downloader;
    QSignalSpy finished(&downloader, &DatasetDownloader::finished);
    QSignalSpy progress(&downloader, &DatasetDownloader::progress);
    downloader.start(plainDataset({server_->url("/data.bin")}, sha256(body_), body_.size()),
                     destination_.path());
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(finished.first().first().toString(), folder_);
    QCOMPARE(readAll(QDir(folder_).filePath("data.bin")), body_);
    QVERIFY(!QFile::exists(QDir(folder_).filePath("data.bin.part")));
    QVERIFY(downloader.unverifiedFiles().isEmpty());
    QCOMPARE(server_->requests().size(), 1);
    QVERIFY(server_->requests()[0].range.isEmpty());
    QCOMPARE(progress.last().at(0).toLongLong(), kBodySize);
    QCOMPARE(progress.last().at(1).toLongLong(), kBodySize);
    QVERIFY(!downloader.isRunning());
  }

  void wrongChecksumFailsAndLeavesNothing() {
    DatasetDownloader downloader;
    QSignalSpy failed(&downloader, &DatasetDownloader::failed);
    QSignalSpy finished(&downloader, &DatasetDownloader::finished);
    downloader.start(
        plainDataset({server_->url("/data.bin")}, sha256("something else"), body_.size()),
        destination_.path());
    QVERIFY(failed.wait(kWaitMs));
    const QString reason = failed.first().first().toString();
    QVERIFY2(reason.contains(QStringLiteral("checksum")), qPrintable(reason));
    QVERIFY2(reason.contains(QStringLiteral("data.bin")), qPrintable(reason));
    QCOMPARE(finished.count(), 0);
    QVERIFY(!QFile::exists(QDir(folder_).filePath("data.bin")));
    QVERIFY(!QFile::exists(QDir(folder_).filePath("data.bin.part")));
  }

  void cancelKeepsPartAndResumeAsksForTheRest() {
    server_->setThrottle(32 * 1024, 5);  // about 6.5 MB/s: a cancel lands midway
    const DatasetInfo info = plainDataset({server_->url("/data.bin")}, sha256(body_), body_.size());
    DatasetDownloader downloader;
    QSignalSpy cancelled(&downloader, &DatasetDownloader::cancelled);
    bool asked = false;
    connect(&downloader, &DatasetDownloader::progress, this, [&](qint64 received, qint64) {
      if (received >= 1024 * 1024 && !asked) {
        asked = true;
        QTimer::singleShot(0, &downloader, &DatasetDownloader::cancel);
      }
    });
    downloader.start(info, destination_.path());
    QVERIFY(cancelled.wait(kWaitMs));
    const QString part = QDir(folder_).filePath("data.bin.part");
    QVERIFY(QFile::exists(part));
    QVERIFY(!QFile::exists(QDir(folder_).filePath("data.bin")));
    const qint64 kept = QFileInfo(part).size();
    QVERIFY2(kept >= 1024 * 1024 && kept < kBodySize, qPrintable(QString::number(kept)));
    QCOMPARE(readAll(part), body_.left(kept));  // exactly the bytes received, in order

    server_->setThrottle(1 << 16, 0);
    disconnect(&downloader, &DatasetDownloader::progress, this, nullptr);
    QSignalSpy finished(&downloader, &DatasetDownloader::finished);
    downloader.start(info, destination_.path());
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(server_->requests().size(), 2);
    const LocalHttpServer::Request& resumed = server_->requests()[1];
    QCOMPARE(resumed.range, QByteArray("bytes=" + QByteArray::number(kept) + "-"));
    QCOMPARE(resumed.status, 206);
    QCOMPARE(resumed.bodyBytesSent, kBodySize - kept);  // only the remainder travelled
    QCOMPARE(readAll(QDir(folder_).filePath("data.bin")), body_);
    QVERIFY(!QFile::exists(part));
  }

  void serverIgnoringRangeStartsOver() {
    server_->setHonourRange(false);
    // A .part that does not match the file: appending to it would fail the checksum.
    writeFile(QDir(folder_).filePath("data.bin.part"), QByteArray(1000, 'x'));
    DatasetDownloader downloader;
    QSignalSpy finished(&downloader, &DatasetDownloader::finished);
    QSignalSpy failed(&downloader, &DatasetDownloader::failed);
    downloader.start(plainDataset({server_->url("/data.bin")}, sha256(body_), body_.size()),
                     destination_.path());
    QVERIFY2(finished.wait(kWaitMs),
             failed.isEmpty() ? "no signal" : qPrintable(failed.first().first().toString()));
    QCOMPARE(server_->requests().size(), 1);
    QCOMPARE(server_->requests()[0].range, QByteArray("bytes=1000-"));
    QCOMPARE(server_->requests()[0].status, 200);
    QCOMPARE(readAll(QDir(folder_).filePath("data.bin")), body_);
  }

  void connectionRefusedSaysOffline() {
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
    const quint16 port = closed.serverPort();
    closed.close();  // nobody listens there now
    DatasetDownloader downloader;
    QSignalSpy failed(&downloader, &DatasetDownloader::failed);
    downloader.start(plainDataset({QStringLiteral("http://127.0.0.1:%1/data.bin").arg(port)},
                                  sha256(body_), body_.size()),
                     destination_.path());
    QVERIFY(failed.wait(kWaitMs));
    const QString reason = failed.first().first().toString();
    QVERIFY2(reason.startsWith(QStringLiteral("Could not reach 127.0.0.1: this computer seems "
                                              "to be offline.")),
             qPrintable(reason));
  }

  void offlineWithPartialSaysItResumes() {
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
    const quint16 port = closed.serverPort();
    closed.close();
    writeFile(QDir(folder_).filePath("data.bin.part"), body_.left(5000));
    DatasetDownloader downloader;
    QSignalSpy failed(&downloader, &DatasetDownloader::failed);
    downloader.start(plainDataset({QStringLiteral("http://127.0.0.1:%1/data.bin").arg(port)},
                                  sha256(body_), body_.size()),
                     destination_.path());
    QVERIFY(failed.wait(kWaitMs));
    const QString reason = failed.first().first().toString();
    QVERIFY2(reason.contains(QStringLiteral("The partial download is kept and will resume.")),
             qPrintable(reason));
    QCOMPARE(QFileInfo(QDir(folder_).filePath("data.bin.part")).size(), qint64{5000});
  }

  void notFoundNamesTheStatus() {
    DatasetDownloader downloader;
    QSignalSpy failed(&downloader, &DatasetDownloader::failed);
    downloader.start(plainDataset({server_->url("/missing.bin")}, sha256(body_), body_.size()),
                     destination_.path());
    QVERIFY(failed.wait(kWaitMs));
    const QString reason = failed.first().first().toString();
    QVERIFY2(reason.contains(QStringLiteral("404")), qPrintable(reason));
    QVERIFY2(reason.contains(QStringLiteral("127.0.0.1")), qPrintable(reason));
    QVERIFY(!QFile::exists(QDir(folder_).filePath("data.bin")));
  }

  void mirrorServesWhenThePrimaryFails() {
    DatasetDownloader downloader;
    QSignalSpy finished(&downloader, &DatasetDownloader::finished);
    downloader.start(plainDataset({server_->url("/moved.bin"), server_->url("/data.bin")},
                                  sha256(body_), body_.size()),
                     destination_.path());
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(server_->requests().size(), 2);
    QCOMPARE(server_->requests()[0].status, 404);
    QCOMPARE(server_->requests()[1].status, 200);
    QCOMPARE(readAll(QDir(folder_).filePath("data.bin")), body_);
  }

  void fileInPlaceIsVerifiedNotFetched() {
    writeFile(QDir(folder_).filePath("data.bin"), body_);
    DatasetDownloader downloader;
    QSignalSpy finished(&downloader, &DatasetDownloader::finished);
    downloader.start(plainDataset({server_->url("/data.bin")}, sha256(body_), body_.size()),
                     destination_.path());
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(server_->requests().size(), 0);
  }

  // A copy the downloader wrote that went bad on disk (same size and time): fetched again.
  void damagedDownloadOfItsOwnIsFetchedAgain() {
    const DatasetInfo info = plainDataset({server_->url("/data.bin")}, sha256(body_), body_.size());
    DatasetDownloader downloader;
    QSignalSpy finished(&downloader, &DatasetDownloader::finished);
    downloader.start(info, destination_.path());
    QVERIFY(finished.wait(kWaitMs));
    QByteArray damaged = body_;
    damaged[100] = static_cast<char>(damaged[100] ^ 1);
    rewriteKeepingTime(QDir(folder_).filePath("data.bin"), damaged);
    downloader.start(info, destination_.path());
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(server_->requests().size(), 2);
    QCOMPARE(readAll(QDir(folder_).filePath("data.bin")), body_);
  }

  // The defect: a file of the user's at the download's name that differed from the published
  // one (their own edit of the corpus, say) was deleted and downloaded over.
  void usersDifferingFileStopsTheDownloadUntouched() {
    QByteArray users = body_;
    users[100] = static_cast<char>(users[100] ^ 1);
    const QString path = QDir(folder_).filePath("data.bin");
    writeFile(path, users);
    DatasetDownloader downloader;
    QSignalSpy failed(&downloader, &DatasetDownloader::failed);
    downloader.start(plainDataset({server_->url("/data.bin")}, sha256(body_), body_.size()),
                     destination_.path());
    QVERIFY(failed.wait(kWaitMs));
    const QString reason = failed.first().first().toString();
    QVERIFY2(reason.contains(QStringLiteral("data.bin")) &&
                 reason.contains(QStringLiteral("left as it is")),
             qPrintable(reason));
    QCOMPARE(readAll(path), users);
    QCOMPARE(server_->requests().size(), 0);

    writeFile(path, "shorter");  // differing in size: the same
    QSignalSpy failedAgain(&downloader, &DatasetDownloader::failed);
    downloader.start(plainDataset({server_->url("/data.bin")}, sha256(body_), body_.size()),
                     destination_.path());
    QVERIFY(failedAgain.wait(kWaitMs));
    QCOMPARE(readAll(path), QByteArray("shorter"));
    QCOMPARE(server_->requests().size(), 0);
  }

  // The defect: a link at the download's .part name had the download appended to the file it
  // names, wherever that was.
  void aLinkAtThePartNameIsNeverWrittenThrough() {
    QTemporaryDir elsewhere;
    const QString outside = elsewhere.filePath(QStringLiteral("thesis.tex"));
    writeFile(outside, "my thesis\n");
    QDir().mkpath(folder_);
    QVERIFY(QFile::link(outside, QDir(folder_).filePath("data.bin.part")));
    DatasetDownloader downloader;
    QSignalSpy failed(&downloader, &DatasetDownloader::failed);
    downloader.start(plainDataset({server_->url("/data.bin")}, sha256(body_), body_.size()),
                     destination_.path());
    QVERIFY(failed.wait(kWaitMs));
    QVERIFY2(failed.first().first().toString().contains(QStringLiteral("not a plain file")),
             qPrintable(failed.first().first().toString()));
    QCOMPARE(readAll(outside), QByteArray("my thesis\n"));
    QCOMPARE(server_->requests().size(), 0);
  }

  void unpacksTarGzAndChecksItsFiles() {
    const QString tar = QStandardPaths::findExecutable(QStringLiteral("tar"));
    if (tar.isEmpty()) QSKIP("tar is not installed");
    const QByteArray wanted = makeBody(70000);
    const QByteArray archive = packTarGz(
        tar, "./corpus", {{"data/wanted.txt", wanted}, {"data/other.txt", "not asked for\n"}});
    server_->addFile("/corpus.tgz", archive);
    // No published checksum for the archive: the unpacked file is checked.
    DatasetInfo info = packedDataset({{server_->url("/corpus.tgz")},
                                      "corpus.tgz",
                                      QString(),
                                      0,
                                      ArchiveKind::TarGz,
                                      {"*corpus/data/wanted.txt"}});
    info.files = {{QStringLiteral("corpus/data/wanted.txt"), sha256(wanted), wanted.size()}};
    DatasetDownloader downloader;
    QSignalSpy finished(&downloader, &DatasetDownloader::finished);
    QSignalSpy failed(&downloader, &DatasetDownloader::failed);
    downloader.start(info, destination_.path());
    QVERIFY2(finished.wait(kWaitMs),
             failed.isEmpty() ? "no signal" : qPrintable(failed.first().first().toString()));
    QCOMPARE(readAll(QDir(folder_).filePath("corpus/data/wanted.txt")), wanted);
    QVERIFY(!QFile::exists(QDir(folder_).filePath("corpus/data/other.txt")));
    QVERIFY(!QFile::exists(QDir(folder_).filePath("corpus.tgz")));  // served its purpose
    QVERIFY(downloader.unverifiedFiles().isEmpty());

    // An unpacked file damaged on disk is caught by its checksum and removed.
    const QString wantedPath = QDir(folder_).filePath("corpus/data/wanted.txt");
    QByteArray damaged = wanted;
    damaged[7] = static_cast<char>(damaged[7] ^ 1);
    rewriteKeepingTime(wantedPath, damaged);
    QSignalSpy failedAgain(&downloader, &DatasetDownloader::failed);
    downloader.start(info, destination_.path());
    QVERIFY(failedAgain.wait(kWaitMs));
    QVERIFY(!QFile::exists(wantedPath));

    // One the user edited is theirs: the check stops at it and leaves it.
    writeFile(wantedPath, "the user's own edit");
    QSignalSpy failedOnUsers(&downloader, &DatasetDownloader::failed);
    downloader.start(info, destination_.path());
    QVERIFY(failedOnUsers.wait(kWaitMs));
    QVERIFY2(failedOnUsers.first().first().toString().contains(QStringLiteral("left as it is")),
             qPrintable(failedOnUsers.first().first().toString()));
    QCOMPARE(readAll(wantedPath), QByteArray("the user's own edit"));
  }

  // The defect: unpacking overwrote a file the user kept at a name the archive holds, and
  // then a file of theirs that failed the check was deleted.
  void unpackingNeverOverwritesAUsersFile() {
    const QString tar = QStandardPaths::findExecutable(QStringLiteral("tar"));
    if (tar.isEmpty()) QSKIP("tar is not installed");
    const QByteArray first = makeBody(5000);
    const QByteArray second = makeBody(7000);
    const QByteArray archive =
        packTarGz(tar, "set", {{"first.txt", first}, {"second.txt", second}});
    server_->addFile("/set.tgz", archive);
    DatasetInfo info = packedDataset({{server_->url("/set.tgz")},
                                      "set.tgz",
                                      sha256(archive),
                                      archive.size(),
                                      ArchiveKind::TarGz,
                                      {}});
    info.files = {{QStringLiteral("set/first.txt"), sha256(first), first.size()},
                  {QStringLiteral("set/second.txt"), sha256(second), second.size()}};
    const QString usersPath = QDir(folder_).filePath("set/first.txt");
    writeFile(usersPath, "my own first file, not the published one");
    DatasetDownloader downloader;
    QSignalSpy failed(&downloader, &DatasetDownloader::failed);
    downloader.start(info, destination_.path());
    QVERIFY(failed.wait(kWaitMs));
    QVERIFY2(failed.first().first().toString().contains(QStringLiteral("set/first.txt")),
             qPrintable(failed.first().first().toString()));
    QCOMPARE(readAll(usersPath), QByteArray("my own first file, not the published one"));
    QCOMPARE(readAll(QDir(folder_).filePath("set/second.txt")), second);
  }

  // An archive the user had already placed there is used, and kept afterwards.
  void usersOwnArchiveIsUsedAndKept() {
    if (QStandardPaths::findExecutable(QStringLiteral("unzip")).isEmpty())
      QSKIP("unzip is not installed");
    const QByteArray tokens = "a b c\n";
    const QByteArray zip = makeZip({{"corpus-2/wiki.train.tokens", tokens}});
    writeFile(QDir(folder_).filePath("corpus-2-v1.zip"), zip);
    DatasetInfo info = packedDataset({{server_->url("/corpus-2-v1.zip")},
                                      "corpus-2-v1.zip",
                                      sha256(zip),
                                      zip.size(),
                                      ArchiveKind::Zip,
                                      {}});
    info.files = {{QStringLiteral("corpus-2/wiki.train.tokens"), sha256(tokens), tokens.size()}};
    DatasetDownloader downloader;
    QSignalSpy finished(&downloader, &DatasetDownloader::finished);
    downloader.start(info, destination_.path());
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(server_->requests().size(), 0);
    QCOMPARE(readAll(QDir(folder_).filePath("corpus-2/wiki.train.tokens")), tokens);
    QCOMPARE(readAll(QDir(folder_).filePath("corpus-2-v1.zip")), zip);
  }

  void unpacksZipMembers() {
    if (QStandardPaths::findExecutable(QStringLiteral("unzip")).isEmpty())
      QSKIP("unzip is not installed");
    const QByteArray tokens = "the cat sat on the mat\n";
    const QByteArray zip =
        makeZip({{"corpus-2/wiki.train.tokens", tokens}, {"corpus-2/README", "not asked for\n"}});
    server_->addFile("/corpus-2-v1.zip", zip);
    DatasetInfo info;
    info.id = QStringLiteral("testset");
    info.name = QStringLiteral("Zipped set");
    info.downloads = {{{server_->url("/corpus-2-v1.zip")},
                       QStringLiteral("corpus-2-v1.zip"),
                       sha256(zip),
                       zip.size(),
                       ArchiveKind::Zip,
                       {QStringLiteral("corpus-2/wiki.train.tokens")}}};
    // The archive's checksum covers what it holds: no checksum of its own is needed here.
    info.files = {{QStringLiteral("corpus-2/wiki.train.tokens"), QString(), 0}};
    DatasetDownloader downloader;
    QSignalSpy finished(&downloader, &DatasetDownloader::finished);
    QSignalSpy failed(&downloader, &DatasetDownloader::failed);
    downloader.start(info, destination_.path());
    QVERIFY2(finished.wait(kWaitMs),
             failed.isEmpty() ? "no signal" : qPrintable(failed.first().first().toString()));
    QCOMPARE(readAll(QDir(folder_).filePath("corpus-2/wiki.train.tokens")), tokens);
    QVERIFY(!QFile::exists(QDir(folder_).filePath("corpus-2/README")));
    QVERIFY(!QFile::exists(QDir(folder_).filePath("corpus-2-v1.zip")));
    QVERIFY(downloader.unverifiedFiles().isEmpty());
  }

  void withoutChecksumSaysNotVerified() {
    DatasetDownloader downloader;
    QSignalSpy finished(&downloader, &DatasetDownloader::finished);
    QSignalSpy status(&downloader, &DatasetDownloader::statusChanged);
    downloader.start(plainDataset({server_->url("/data.bin")}, QString(), 0), destination_.path());
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(downloader.unverifiedFiles(), QStringList{QDir(folder_).filePath("data.bin")});
    QVERIFY(status.last().first().toString().contains(QStringLiteral("not verified")));
    QCOMPARE(readAll(QDir(folder_).filePath("data.bin")), body_);
  }

 private:
  QByteArray body_;
  std::unique_ptr<LocalHttpServer> server_;
  QTemporaryDir destination_;
  QString folder_;
};

QTEST_GUILESS_MAIN(DatasetDownloaderTest)
#include "test_dataset_downloader.moc"
