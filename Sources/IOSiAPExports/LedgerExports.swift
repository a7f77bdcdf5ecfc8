import CIOSiAP
import IOSiAPCore

// The grant ledger's C functions: convert and forward to PurchaseStore.

@c(iosiap_ledger_register_currency)
public func iosiap_ledger_register_currency(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?,
                                            _ currency: UnsafePointer<CChar>?, _ amountPerUnit: Int64) -> CInt {
    withStatus { () throws(StoreError) in
        let handle = try HandleRegistry.handle(store)
        let grant = Grant.currency(try CStringInput.required(currency, "currency"), amountPerUnit: amountPerUnit)
        try handle.store.registerGrant(grant, for: try CStringInput.productID(productID))
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_ledger_register_entitlement)
public func iosiap_ledger_register_entitlement(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?,
                                               _ entitlement: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        let handle = try HandleRegistry.handle(store)
        let grant = Grant.entitlement(try CStringInput.required(entitlement, "entitlement"))
        try handle.store.registerGrant(grant, for: try CStringInput.productID(productID))
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_ledger_balance)
public func iosiap_ledger_balance(_ outBalance: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?,
                                  _ currency: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let outBalance else { throw StoreError(.invalidArgument, "out_balance is NULL") }
        let handle = try HandleRegistry.handle(store)
        outBalance.pointee = try handle.store.balance(of: try CStringInput.required(currency, "currency"))
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_ledger_spend)
public func iosiap_ledger_spend(_ store: OpaquePointer?, _ currency: UnsafePointer<CChar>?, _ amount: Int64) -> CInt {
    withStatus { () throws(StoreError) in
        let handle = try HandleRegistry.handle(store)
        try handle.store.spend(amount, of: try CStringInput.required(currency, "currency"))
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_ledger_has_entitlement)
public func iosiap_ledger_has_entitlement(_ outEntitled: UnsafeMutablePointer<CInt>?, _ store: OpaquePointer?,
                                          _ entitlement: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let outEntitled else { throw StoreError(.invalidArgument, "out_entitled is NULL") }
        let handle = try HandleRegistry.handle(store)
        outEntitled.pointee = try handle.store.hasEntitlement(try CStringInput.required(entitlement, "entitlement")) ? 1 : 0
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_ledger_set_deduct_refunds)
public func iosiap_ledger_set_deduct_refunds(_ store: OpaquePointer?, _ deduct: CInt) -> CInt {
    withStatus { () throws(StoreError) in
        try HandleRegistry.handle(store).store.setDeductsRefundedConsumables(deduct != 0)
        return IOSIAP_OK.rawValue
    }
}
