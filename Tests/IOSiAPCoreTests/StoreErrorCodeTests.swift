import IOSiAPCore
import Testing

@Suite struct StoreErrorCodeTests {
    @Test func rawValuesAreUniqueAndNegative() {
        let values = StoreErrorCode.allCases.map(\.rawValue)
        #expect(Set(values).count == values.count)
        #expect(values.allSatisfy { $0 < 0 })
    }

    @Test func storeKitCodesKeepTheirSKErrorNumbers() {
        #expect(StoreErrorCode.unknown.storeKitCode == 0)
        #expect(StoreErrorCode.paymentCancelled.storeKitCode == 2)
        #expect(StoreErrorCode.storeProductNotAvailable.storeKitCode == 5)
        #expect(StoreErrorCode.overlayPresentedInBackgroundScene.storeKitCode == 20)
        #expect(StoreErrorCode.paymentMethodBindingConfigurationRequired.storeKitCode == 21)
        #expect(StoreErrorCode.invalidArgument.storeKitCode == nil)
    }

    @Test func everySKErrorCodeHasACase() {
        for code in 0...21 {
            let mapped = StoreErrorCode(storeKitCode: code)
            #expect(mapped?.storeKitCode == code, "SKError code \(code)")
        }
        #expect(StoreErrorCode(storeKitCode: 22) == nil)
        #expect(StoreErrorCode(storeKitCode: -1) == nil)
    }

    @Test func errorsWithoutMessageUseTheSummary() {
        let error = StoreError(.quantityOutOfRange)
        #expect(error.message == "quantity outside 1...10")
        #expect(error.description.hasSuffix("[-4]"))
    }
}
