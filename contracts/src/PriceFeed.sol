// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title PriceFeed
/// @notice A dev-chain price feed with Chainlink's AggregatorV3Interface (plus the legacy
/// latestAnswer/latestTimestamp/latestRound getters). The deployer publishes answers; each update
/// opens a new round. updateRoundData publishes an answer with an explicit (past) updatedAt, for
/// staleness tests. Round ids start at 1 and carry no phase id.
contract PriceFeed {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
    }

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    uint256 public constant version = 4;
    uint8 public immutable decimals;
    address public immutable owner;
    string public description;
    uint80 public latestRound;

    mapping(uint80 => Round) private rounds;

    /// @param decimals_ decimals of the answer (8 for Chainlink's USD feeds).
    /// @param description_ e.g. "ETH / USD".
    /// @param initialAnswer published as round 1 unless it is zero.
    constructor(uint8 decimals_, string memory description_, int256 initialAnswer) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        if (initialAnswer != 0) {
            _publish(initialAnswer, block.timestamp);
        }
    }

    /// @notice Publishes `answer` as a new round updated now. Only the deployer may call it.
    function updateAnswer(int256 answer) external {
        require(msg.sender == owner, "PriceFeed: caller is not the owner");
        _publish(answer, block.timestamp);
    }

    /// @notice Publishes `answer` as a new round whose startedAt and updatedAt are `updatedAt`,
    /// which may lie in the past but not in the future. Only the deployer may call it.
    function updateRoundData(int256 answer, uint256 updatedAt) external {
        require(msg.sender == owner, "PriceFeed: caller is not the owner");
        require(updatedAt <= block.timestamp, "PriceFeed: updatedAt is in the future");
        _publish(answer, updatedAt);
    }

    function getRoundData(uint80 roundId)
        external
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        require(roundId > 0 && roundId <= latestRound, "No data present");
        Round memory r = rounds[roundId];
        return (roundId, r.answer, r.startedAt, r.updatedAt, roundId);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        roundId = latestRound;
        require(roundId > 0, "No data present");
        Round memory r = rounds[roundId];
        return (roundId, r.answer, r.startedAt, r.updatedAt, roundId);
    }

    function latestAnswer() external view returns (int256) {
        return rounds[latestRound].answer;
    }

    function latestTimestamp() external view returns (uint256) {
        return rounds[latestRound].updatedAt;
    }

    function getAnswer(uint256 roundId) external view returns (int256) {
        return roundId > type(uint80).max ? int256(0) : rounds[uint80(roundId)].answer;
    }

    function getTimestamp(uint256 roundId) external view returns (uint256) {
        return roundId > type(uint80).max ? 0 : rounds[uint80(roundId)].updatedAt;
    }

    function _publish(int256 answer, uint256 updatedAt) private {
        uint80 roundId = latestRound + 1;
        latestRound = roundId;
        rounds[roundId] = Round(answer, updatedAt, updatedAt);
        emit NewRound(roundId, msg.sender, updatedAt);
        emit AnswerUpdated(answer, roundId, updatedAt);
    }
}
