// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title IdentityRegistry
/// @notice ERC-8004 (Trustless Agents) Identity Registry, in the revision deployed at 0x8004A169... on
/// mainnet: every agent is an ERC-721 token
/// whose tokenURI is the agent URI, the address of the agent's registration file. register mints
/// the next agent id to the caller; the owner (or an approved operator) may change the URI and set
/// on-chain metadata. The ERC-721 core is complete (approvals, operators, transfers; safe
/// transfers call onERC721Received). The agent wallet is the owner at registration and is cleared on
/// transfer; setAgentWallet (an EIP-712 proof from the new wallet) is not supported here and
/// reverts, unsetAgentWallet clears it. Ward adds ERC721Enumerable's tokenOfOwnerByIndex and
/// totalSupply so an owner's agents can be listed without an event index. Agent ids start at 0.
contract IdentityRegistry {
    struct MetadataEntry {
        string metadataKey;
        bytes metadataValue;
    }

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
    event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy);
    event MetadataSet(
        uint256 indexed agentId, string indexed indexedMetadataKey, string metadataKey, bytes metadataValue
    );

    string public constant name = "ERC-8004 Trustless Agent";
    string public constant symbol = "AGENT";

    uint256 private _next;
    mapping(uint256 => address) private _owners;
    mapping(address => uint256[]) private _owned;
    mapping(uint256 => uint256) private _ownedIndex;
    mapping(uint256 => address) private _approved;
    mapping(address => mapping(address => bool)) private _operators;
    mapping(uint256 => string) private _uris;
    mapping(uint256 => mapping(string => bytes)) private _metadata;
    mapping(uint256 => address) private _wallets;

    function register(string calldata agentURI, MetadataEntry[] calldata metadata) external returns (uint256 agentId) {
        agentId = _register(agentURI);
        for (uint256 i = 0; i < metadata.length; i++) {
            _setMetadata(agentId, metadata[i].metadataKey, metadata[i].metadataValue);
        }
    }

    function register(string calldata agentURI) external returns (uint256 agentId) {
        return _register(agentURI);
    }

    function register() external returns (uint256 agentId) {
        return _register("");
    }

    function setAgentURI(uint256 agentId, string calldata newURI) external {
        require(_isAuthorized(msg.sender, agentId), "IdentityRegistry: not the agent's owner or operator");
        _uris[agentId] = newURI;
        emit URIUpdated(agentId, newURI, msg.sender);
    }

    function setMetadata(uint256 agentId, string calldata metadataKey, bytes calldata metadataValue) external {
        require(_isAuthorized(msg.sender, agentId), "IdentityRegistry: not the agent's owner or operator");
        _setMetadata(agentId, metadataKey, metadataValue);
    }

    function getMetadata(uint256 agentId, string calldata metadataKey) external view returns (bytes memory) {
        return _metadata[agentId][metadataKey];
    }

    function getAgentWallet(uint256 agentId) external view returns (address) {
        ownerOf(agentId);
        return _wallets[agentId];
    }

    function setAgentWallet(uint256, address, uint256, bytes calldata) external pure {
        revert("IdentityRegistry: setAgentWallet is not supported on ward's dev registry");
    }

    function unsetAgentWallet(uint256 agentId) external {
        require(_isAuthorized(msg.sender, agentId), "IdentityRegistry: not the agent's owner or operator");
        delete _wallets[agentId];
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        return _uris[tokenId];
    }

    function ownerOf(uint256 tokenId) public view returns (address owner) {
        owner = _owners[tokenId];
        require(owner != address(0), "IdentityRegistry: no such agent");
    }

    function balanceOf(address owner) external view returns (uint256) {
        require(owner != address(0), "IdentityRegistry: zero address");
        return _owned[owner].length;
    }

    function totalSupply() external view returns (uint256) {
        return _next;
    }

    function tokenOfOwnerByIndex(address owner, uint256 index) external view returns (uint256) {
        require(index < _owned[owner].length, "IdentityRegistry: owner index out of bounds");
        return _owned[owner][index];
    }

    function approve(address to, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        require(msg.sender == owner || _operators[owner][msg.sender], "IdentityRegistry: not the owner or operator");
        _approved[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    function getApproved(uint256 tokenId) external view returns (address) {
        ownerOf(tokenId);
        return _approved[tokenId];
    }

    function setApprovalForAll(address operator, bool approved) external {
        _operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function isApprovedForAll(address owner, address operator) external view returns (bool) {
        return _operators[owner][operator];
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        require(_isAuthorized(msg.sender, tokenId), "IdentityRegistry: not the owner or approved");
        require(ownerOf(tokenId) == from, "IdentityRegistry: from is not the owner");
        require(to != address(0), "IdentityRegistry: transfer to the zero address");
        delete _approved[tokenId];
        delete _wallets[tokenId];
        _removeOwned(from, tokenId);
        _addOwned(to, tokenId);
        _owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        _checkReceiver(from, to, tokenId, data);
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x80ac58cd || id == 0x5b5e139f || id == 0x780e9d63;
    }

    /// @notice Whether spender may act for the agent: its owner, an operator of the owner, or the
    /// address approved for it.
    function isAuthorizedOrOwner(address spender, uint256 agentId) external view returns (bool) {
        return _isAuthorized(spender, agentId);
    }

    function _register(string memory agentURI) private returns (uint256 agentId) {
        agentId = _next++;
        _owners[agentId] = msg.sender;
        _addOwned(msg.sender, agentId);
        _uris[agentId] = agentURI;
        _wallets[agentId] = msg.sender;
        emit Transfer(address(0), msg.sender, agentId);
        emit Registered(agentId, agentURI, msg.sender);
        _checkReceiver(address(0), msg.sender, agentId, "");
    }

    function _setMetadata(uint256 agentId, string memory key, bytes memory value) private {
        _metadata[agentId][key] = value;
        emit MetadataSet(agentId, key, key, value);
    }

    function _isAuthorized(address spender, uint256 tokenId) private view returns (bool) {
        address owner = ownerOf(tokenId);
        return spender == owner || _operators[owner][spender] || _approved[tokenId] == spender;
    }

    function _addOwned(address to, uint256 tokenId) private {
        _ownedIndex[tokenId] = _owned[to].length;
        _owned[to].push(tokenId);
    }

    function _removeOwned(address from, uint256 tokenId) private {
        uint256[] storage list = _owned[from];
        uint256 i = _ownedIndex[tokenId];
        uint256 last = list[list.length - 1];
        list[i] = last;
        _ownedIndex[last] = i;
        list.pop();
    }

    function _checkReceiver(address from, address to, uint256 tokenId, bytes memory data) private {
        if (to.code.length == 0) return;
        (bool ok, bytes memory ret) =
            to.call(abi.encodeWithSelector(0x150b7a02, msg.sender, from, tokenId, data));
        require(ok && ret.length == 32 && bytes4(ret) == 0x150b7a02, "IdentityRegistry: receiver rejected the agent");
    }
}

interface IIdentity {
    function ownerOf(uint256 agentId) external view returns (address);
    function isAuthorizedOrOwner(address spender, uint256 agentId) external view returns (bool);
}

/// @title ReputationRegistry
/// @notice ERC-8004 (Trustless Agents) Reputation Registry over one IdentityRegistry, in the
/// revision deployed at 0x8004BAa1... on mainnet: a client gives an agent feedback as a signed
/// fixed-point value (int128 value with valueDecimals <= 18, |value| <= 1e38), two free-text
/// tags, the endpoint it concerns, and an optional feedback file URI and hash. No
/// pre-authorisation is needed, but an agent's owner or operator cannot rate it. Feedback indexes
/// start at 1 per client and agent. A client may revoke its own feedback; anyone may append a
/// response. getSummary averages the matching unrevoked values at the largest valueDecimals among
/// them (an empty tag or client list matches all).
contract ReputationRegistry {
    struct Feedback {
        int128 value;
        uint8 valueDecimals;
        bool isRevoked;
        string tag1;
        string tag2;
    }

    struct Filter {
        bytes32 tag1;
        bytes32 tag2;
        bool includeRevoked;
    }

    struct Rows {
        address[] clients;
        uint64[] indexes;
        int128[] values;
        uint8[] decimals;
        string[] tag1s;
        string[] tag2s;
        bool[] revoked;
    }

    event NewFeedback(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        int128 value,
        uint8 valueDecimals,
        string indexed indexedTag1,
        string tag1,
        string tag2,
        string endpoint,
        string feedbackURI,
        bytes32 feedbackHash
    );
    event FeedbackRevoked(uint256 indexed agentId, address indexed clientAddress, uint64 indexed feedbackIndex);
    event ResponseAppended(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        address indexed responder,
        string responseURI,
        bytes32 responseHash
    );

    int256 private constant MAX_ABS_VALUE = 1e38;
    uint8 private constant MAX_DECIMALS = 18;

    address private immutable identity;
    mapping(uint256 => mapping(address => Feedback[])) private _feedback;
    mapping(uint256 => address[]) private _clients;
    mapping(uint256 => mapping(address => bool)) private _isClient;

    constructor(address identityRegistry) {
        identity = identityRegistry;
    }

    function getIdentityRegistry() external view returns (address) {
        return identity;
    }

    function giveFeedback(
        uint256 agentId,
        int128 value,
        uint8 valueDecimals,
        string calldata tag1,
        string calldata tag2,
        string calldata endpoint,
        string calldata feedbackURI,
        bytes32 feedbackHash
    ) external {
        require(valueDecimals <= MAX_DECIMALS, "ReputationRegistry: too many decimals");
        require(value <= MAX_ABS_VALUE && value >= -MAX_ABS_VALUE, "ReputationRegistry: value out of range");
        Feedback memory f = Feedback(value, valueDecimals, false, tag1, tag2);
        uint64 index = _store(agentId, f);
        _emitNew(agentId, index, f, endpoint, feedbackURI, feedbackHash);
    }

    function _store(uint256 agentId, Feedback memory f) private returns (uint64) {
        IIdentity(identity).ownerOf(agentId);
        require(!IIdentity(identity).isAuthorizedOrOwner(msg.sender, agentId), "ReputationRegistry: self-feedback not allowed");
        if (!_isClient[agentId][msg.sender]) {
            _isClient[agentId][msg.sender] = true;
            _clients[agentId].push(msg.sender);
        }
        Feedback[] storage list = _feedback[agentId][msg.sender];
        list.push(f);
        return uint64(list.length);
    }

    function _emitNew(
        uint256 agentId,
        uint64 index,
        Feedback memory f,
        string memory endpoint,
        string memory feedbackURI,
        bytes32 feedbackHash
    ) private {
        emit NewFeedback(
            agentId, msg.sender, index, f.value, f.valueDecimals, f.tag1, f.tag1, f.tag2, endpoint, feedbackURI, feedbackHash
        );
    }

    function revokeFeedback(uint256 agentId, uint64 feedbackIndex) external {
        Feedback[] storage list = _feedback[agentId][msg.sender];
        require(feedbackIndex >= 1 && feedbackIndex <= list.length, "ReputationRegistry: no such feedback");
        require(!list[feedbackIndex - 1].isRevoked, "ReputationRegistry: already revoked");
        list[feedbackIndex - 1].isRevoked = true;
        emit FeedbackRevoked(agentId, msg.sender, feedbackIndex);
    }

    function appendResponse(
        uint256 agentId,
        address clientAddress,
        uint64 feedbackIndex,
        string calldata responseURI,
        bytes32 responseHash
    ) external {
        require(
            feedbackIndex >= 1 && feedbackIndex <= _feedback[agentId][clientAddress].length,
            "ReputationRegistry: no such feedback"
        );
        emit ResponseAppended(agentId, clientAddress, feedbackIndex, msg.sender, responseURI, responseHash);
    }

    function getLastIndex(uint256 agentId, address clientAddress) external view returns (uint64) {
        return uint64(_feedback[agentId][clientAddress].length);
    }

    function getClients(uint256 agentId) external view returns (address[] memory) {
        return _clients[agentId];
    }

    function readFeedback(uint256 agentId, address clientAddress, uint64 feedbackIndex)
        external
        view
        returns (int128 value, uint8 valueDecimals, string memory tag1, string memory tag2, bool isRevoked)
    {
        Feedback[] storage list = _feedback[agentId][clientAddress];
        require(feedbackIndex >= 1 && feedbackIndex <= list.length, "ReputationRegistry: no such feedback");
        Feedback storage f = list[feedbackIndex - 1];
        return (f.value, f.valueDecimals, f.tag1, f.tag2, f.isRevoked);
    }

    function getSummary(uint256 agentId, address[] memory clientAddresses, string memory tag1, string memory tag2)
        external
        view
        returns (uint64 count, int128 summaryValue, uint8 summaryValueDecimals)
    {
        Rows memory rows = _collect(agentId, _clientsOf(agentId, clientAddresses), _filter(tag1, tag2, false));
        count = uint64(rows.values.length);
        if (count == 0) return (0, 0, 0);
        for (uint256 i = 0; i < count; i++) {
            if (rows.decimals[i] > summaryValueDecimals) summaryValueDecimals = rows.decimals[i];
        }
        int256 total;
        for (uint256 i = 0; i < count; i++) {
            total += int256(rows.values[i]) * int256(10 ** (summaryValueDecimals - rows.decimals[i]));
        }
        summaryValue = int128(total / int256(uint256(count)));
    }

    function readAllFeedback(
        uint256 agentId,
        address[] memory clientAddresses,
        string memory tag1,
        string memory tag2,
        bool includeRevoked
    )
        external
        view
        returns (
            address[] memory clients,
            uint64[] memory feedbackIndexes,
            int128[] memory values,
            uint8[] memory valueDecimals,
            string[] memory tag1s,
            string[] memory tag2s,
            bool[] memory revokedStatuses
        )
    {
        Rows memory r = _collect(agentId, _clientsOf(agentId, clientAddresses), _filter(tag1, tag2, includeRevoked));
        return (r.clients, r.indexes, r.values, r.decimals, r.tag1s, r.tag2s, r.revoked);
    }

    function _filter(string memory tag1, string memory tag2, bool includeRevoked) private pure returns (Filter memory) {
        return Filter(_tagHash(tag1), _tagHash(tag2), includeRevoked);
    }

    function _tagHash(string memory tag) private pure returns (bytes32) {
        return bytes(tag).length == 0 ? bytes32(0) : keccak256(bytes(tag));
    }

    function _clientsOf(uint256 agentId, address[] memory given) private view returns (address[] memory) {
        if (given.length > 0) return given;
        return _clients[agentId];
    }

    function _matches(Feedback storage f, Filter memory q) private view returns (bool) {
        return (q.includeRevoked || !f.isRevoked) && (q.tag1 == 0 || _tagHash(f.tag1) == q.tag1)
            && (q.tag2 == 0 || _tagHash(f.tag2) == q.tag2);
    }

    function _count(uint256 agentId, address[] memory from, Filter memory q) private view returns (uint256 n) {
        for (uint256 c = 0; c < from.length; c++) {
            Feedback[] storage list = _feedback[agentId][from[c]];
            for (uint256 i = 0; i < list.length; i++) {
                if (_matches(list[i], q)) n++;
            }
        }
    }

    function _collect(uint256 agentId, address[] memory from, Filter memory q) private view returns (Rows memory rows) {
        uint256 n = _count(agentId, from, q);
        rows.clients = new address[](n);
        rows.indexes = new uint64[](n);
        rows.values = new int128[](n);
        rows.decimals = new uint8[](n);
        rows.tag1s = new string[](n);
        rows.tag2s = new string[](n);
        rows.revoked = new bool[](n);
        uint256 k;
        for (uint256 c = 0; c < from.length; c++) {
            Feedback[] storage list = _feedback[agentId][from[c]];
            for (uint256 i = 0; i < list.length; i++) {
                Feedback storage f = list[i];
                if (!_matches(f, q)) continue;
                rows.clients[k] = from[c];
                rows.indexes[k] = uint64(i + 1);
                rows.values[k] = f.value;
                rows.decimals[k] = f.valueDecimals;
                rows.tag1s[k] = f.tag1;
                rows.tag2s[k] = f.tag2;
                rows.revoked[k] = f.isRevoked;
                k++;
            }
        }
    }
}
