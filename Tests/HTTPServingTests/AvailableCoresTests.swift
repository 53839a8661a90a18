import Testing

@testable import HTTPServing

/// The default thread count follows the cores the process may run on, read from the kernel's list.
@Suite struct AvailableCoresTests {
    @Test(arguments: [("0", 1), ("0-1", 2), ("0-3,8,10-11", 7), (" 2,4 ", 2)])
    func listsAreCounted(list: String, cores: Int) {
        #expect(AvailableCores.count(list: Substring(list)) == cores)
    }

    @Test(arguments: ["", "a", "3-1", "1-2-3", "0,,1"])
    func otherTextIsNotAList(list: String) {
        #expect(AvailableCores.count(list: Substring(list)) == nil)
    }

    @Test func thisProcessHasAtLeastOneCore() {
        #expect(AvailableCores.count >= 1)
    }
}
