// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

// SessionKeyAccount is ward's own ERC-4337 smart account for the EntryPoint v0.7 (PackedUserOperation).
// It has one owner and any number of session keys. The owner may do anything, by a userOp it signs
// or by calling the account directly. A session key may only call execute(target, value, data) with a
// (target, selector) pair in its scope, a value up to its per-call cap, before its expiry (returned
// as validUntil in validationData, so the EntryPoint refuses a late userOp). Only the owner may grant
// or revoke session keys.

struct PackedUserOperation {
    address sender;
    uint256 nonce;
    bytes initCode;
    bytes callData;
    bytes32 accountGasLimits;
    uint256 preVerificationGas;
    bytes32 gasFees;
    bytes paymasterAndData;
    bytes signature;
}

interface IEntryPointDeposit {
    function depositTo(address account) external payable;
    function balanceOf(address account) external view returns (uint256);
    function getNonce(address sender, uint192 key) external view returns (uint256);
}

contract SessionKeyAccount {
    uint256 internal constant SIG_VALIDATION_FAILED = 1;
    bytes4 internal constant EXECUTE = bytes4(keccak256("execute(address,uint256,bytes)"));

    address public immutable entryPoint;
    address public owner;

    struct Session {
        uint48 validUntil;
        uint128 valueCap;
        bool active;
    }

    mapping(address => Session) internal sessions;
    // allowed[key][target][selector]
    mapping(address => mapping(address => mapping(bytes4 => bool))) internal allowed;
    // the pairs granted, kept so sessionScope can list them and revoke can clear them
    mapping(address => address[]) internal scopeTargets;
    mapping(address => bytes4[]) internal scopeSelectors;

    event SessionKeyGranted(address indexed key, uint48 validUntil, uint128 valueCap, address[] targets, bytes4[] selectors);
    event SessionKeyRevoked(address indexed key);
    event OwnerChanged(address indexed previousOwner, address indexed newOwner);

    constructor(address entryPoint_, address owner_) {
        require(entryPoint_ != address(0), "account: zero entry point");
        require(owner_ != address(0), "account: zero owner");
        entryPoint = entryPoint_;
        owner = owner_;
    }

    receive() external payable {}

    modifier onlyOwner() {
        require(msg.sender == owner || msg.sender == address(this), "account: not owner");
        _;
    }

    modifier fromEntryPointOrOwner() {
        require(msg.sender == entryPoint || msg.sender == owner, "account: not entry point or owner");
        _;
    }

    // validateUserOp is IAccount's (EntryPoint v0.7). The signature is an ECDSA signature (65 bytes,
    // r, s, v) over the EIP-191 message hash of userOpHash, by the owner or by a session key.
    function validateUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash, uint256 missingAccountFunds)
        external
        returns (uint256 validationData)
    {
        require(msg.sender == entryPoint, "account: not entry point");
        validationData = _validate(userOp, userOpHash);
        if (missingAccountFunds > 0) {
            (bool ok,) = payable(msg.sender).call{value: missingAccountFunds}("");
            ok; // the EntryPoint checks the prefund itself
        }
    }

    function _validate(PackedUserOperation calldata userOp, bytes32 userOpHash) internal view returns (uint256) {
        address signer = _recover(
            keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", userOpHash)), userOp.signature
        );
        if (signer == address(0)) return SIG_VALIDATION_FAILED;
        if (signer == owner) return 0;
        Session memory s = sessions[signer];
        if (!s.active) return SIG_VALIDATION_FAILED;
        (bool inScope,) = _inScope(signer, userOp.callData);
        if (!inScope) return SIG_VALIDATION_FAILED;
        return uint256(s.validUntil) << 160;
    }

    // checkSessionCall says whether key may send callData (an execute call) now, and if not, why.
    // Ward reads it before signing so an out-of-scope write is refused before anything is sent.
    function checkSessionCall(address key, bytes calldata callData) external view returns (bool ok, string memory reason) {
        Session memory s = sessions[key];
        if (!s.active) return (false, "session key not granted");
        if (block.timestamp > s.validUntil) return (false, "session key expired");
        (bool inScope, string memory why) = _inScope(key, callData);
        return (inScope, why);
    }

    function _inScope(address key, bytes calldata callData) internal view returns (bool, string memory) {
        if (callData.length < 4 || bytes4(callData[:4]) != EXECUTE) return (false, "not an execute call");
        (address target, uint256 value, bytes memory data) = abi.decode(callData[4:], (address, uint256, bytes));
        if (target == address(this)) return (false, "session keys cannot call the account");
        if (value > sessions[key].valueCap) return (false, "value over the session key's cap");
        // A plain ether transfer (no data) is selector 0x00000000.
        bytes4 sel;
        if (data.length >= 4) {
            assembly {
                sel := mload(add(data, 32))
            }
        } else if (data.length != 0) {
            return (false, "call data shorter than a selector");
        }
        if (!allowed[key][target][sel]) return (false, "target and selector not in the session key's scope");
        return (true, "");
    }

    function _recover(bytes32 digest, bytes calldata sig) internal pure returns (address) {
        if (sig.length != 65) return address(0);
        bytes32 r = bytes32(sig[0:32]);
        bytes32 s = bytes32(sig[32:64]);
        uint8 v = uint8(sig[64]);
        if (v < 27) v += 27;
        // the lower half order only, as OpenZeppelin's ECDSA
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return address(0);
        return ecrecover(digest, v, r, s);
    }

    function execute(address target, uint256 value, bytes calldata data) external fromEntryPointOrOwner {
        (bool ok, bytes memory ret) = target.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
    }

    // grantSessionKey replaces key's scope with the given pairs, cap and expiry.
    function grantSessionKey(
        address key,
        uint48 validUntil,
        uint128 valueCap,
        address[] calldata targets,
        bytes4[] calldata selectors
    ) external onlyOwner {
        require(key != address(0) && key != owner, "account: bad session key");
        require(targets.length == selectors.length, "account: targets and selectors differ in length");
        require(validUntil > block.timestamp, "account: expiry in the past");
        _clear(key);
        for (uint256 i = 0; i < targets.length; i++) {
            require(targets[i] != address(this), "account: session keys cannot call the account");
            allowed[key][targets[i]][selectors[i]] = true;
            scopeTargets[key].push(targets[i]);
            scopeSelectors[key].push(selectors[i]);
        }
        sessions[key] = Session({validUntil: validUntil, valueCap: valueCap, active: true});
        emit SessionKeyGranted(key, validUntil, valueCap, targets, selectors);
    }

    function revokeSessionKey(address key) external onlyOwner {
        require(sessions[key].active, "account: no such session key");
        _clear(key);
        delete sessions[key];
        emit SessionKeyRevoked(key);
    }

    function _clear(address key) internal {
        address[] storage ts = scopeTargets[key];
        bytes4[] storage ss = scopeSelectors[key];
        for (uint256 i = 0; i < ts.length; i++) {
            delete allowed[key][ts[i]][ss[i]];
        }
        delete scopeTargets[key];
        delete scopeSelectors[key];
    }

    function setOwner(address newOwner) external onlyOwner {
        require(newOwner != address(0), "account: zero owner");
        emit OwnerChanged(owner, newOwner);
        owner = newOwner;
    }

    function sessionKey(address key) external view returns (bool active, uint48 validUntil, uint128 valueCap) {
        Session memory s = sessions[key];
        return (s.active, s.validUntil, s.valueCap);
    }

    function sessionScope(address key) external view returns (address[] memory targets, bytes4[] memory selectors) {
        return (scopeTargets[key], scopeSelectors[key]);
    }

    function isAllowed(address key, address target, bytes4 selector) external view returns (bool) {
        return allowed[key][target][selector];
    }

    function getNonce() external view returns (uint256) {
        return IEntryPointDeposit(entryPoint).getNonce(address(this), 0);
    }

    function getDeposit() external view returns (uint256) {
        return IEntryPointDeposit(entryPoint).balanceOf(address(this));
    }

    function addDeposit() external payable {
        IEntryPointDeposit(entryPoint).depositTo{value: msg.value}(address(this));
    }
}
