// StoreDelegate's two onRestoreFinished overloads (the rich one and the classic one): a delegate that overrides
// either, with `using iosiap::StoreDelegate::onRestoreFinished;` as docs/cpp.md shows, compiles cleanly under g++'s
// -Woverloaded-virtual (which warns that one hides the other without it), and both are called as a restore ends.
// usage: restore_overloads CATALOG.storekit STATE_DIRECTORY
#include <iosiap/iosiap.hpp>

#include <cstdio>
#include <string>

#include "test_store.hpp"

#define TEST_NAME "restore_overloads"
#include "expect.hpp"

namespace {

/** Overrides the rich overload only. */
class RichGame : public iosiap::StoreDelegate {
public:
    using iosiap::StoreDelegate::onRestoreFinished;
    int finished = 0;
    bool succeeded = false;
    void onRestoreFinished(std::uint64_t, bool ok, std::size_t, int, const std::string &) override {
        succeeded = ok;
        finished++;
    }
};

/** Overrides the classic overload only, as a game ported from the original IOSiAP does. */
class ClassicGame : public iosiap::StoreDelegate {
public:
    using iosiap::StoreDelegate::onRestoreFinished;
    int finished = 0;
    bool succeeded = false;
    void onRestoreFinished(bool ok) override {
        succeeded = ok;
        finished++;
    }
};

/** Restores in a store opened on `directory`, frame after frame until the delegate heard the end (about 5 s). */
template <typename Game> void restore(const char *catalog, const std::string &directory, Game &game) {
    iosiap::LocalStoreOptions options;
    options.catalogPath = catalog;
    options.stateDirectory = directory;
    iosiap::Store store;
    expect(openTestStore(store, options, &game) == IOSIAP_OK, "the store opens");
    expect(store.requestRestore() == IOSIAP_OK, "the restore starts");
    for (int frame = 0; frame < 2500 && game.finished == 0; frame++) {
        store.poll();
        betweenFrames();
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    RichGame rich;
    restore(argv[1], std::string(argv[2]) + "/rich", rich);
    expect(rich.finished == 1 && rich.succeeded, "the rich override hears the restore end, once");
    ClassicGame classic;
    restore(argv[1], std::string(argv[2]) + "/classic", classic);
    expect(classic.finished == 1 && classic.succeeded, "the classic override hears the restore end, once");
    return report();
}
