// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "./ERC20.sol";
import {IERC20} from "./IERC20.sol";

/// @notice Pendle V2's tokenized yield, reduced to what ward's yield tools call, with Pendle's
/// external function names, argument and return types: a standardized-yield token (SY) wrapping one
/// underlying ERC-20, a principal token (PT) and yield token (YT) of one maturity, a PT/SY market and
/// the router's PT swaps and redemption. Written for ward; see contracts/README.md for what is left out.

/// @notice Pendle's router structs (IPAllActionTypeV3), kept whole so the selectors are Pendle's.
struct ApproxParams {
    uint256 guessMin;
    uint256 guessMax;
    uint256 guessOffchain;
    uint256 maxIteration;
    uint256 eps;
}

struct SwapData {
    uint8 swapType;
    address extRouter;
    bytes extCalldata;
    bool needScale;
}

struct TokenInput {
    address tokenIn;
    uint256 netTokenIn;
    address tokenMintSy;
    address pendleSwap;
    SwapData swapData;
}

struct TokenOutput {
    address tokenOut;
    uint256 minTokenOut;
    address tokenRedeemSy;
    address pendleSwap;
    SwapData swapData;
}

struct Order {
    uint256 salt;
    uint256 expiry;
    uint256 nonce;
    uint8 orderType;
    address token;
    address YT;
    address maker;
    address receiver;
    uint256 makingAmount;
    uint256 lnImpliedRate;
    uint256 failSafeRate;
    bytes permit;
}

struct FillOrderParams {
    Order order;
    bytes signature;
    uint256 makingAmount;
}

struct LimitOrderData {
    address limitRouter;
    uint256 epsSkipMarket;
    FillOrderParams[] normalFills;
    FillOrderParams[] flashFills;
    bytes optData;
}

/// @notice A standardized-yield token over one ERC-20: one SY per underlying unit (exchangeRate 1e18).
contract PendleSY is ERC20 {
    event Deposit(address indexed caller, address indexed receiver, address indexed tokenIn, uint256 amountDeposited, uint256 amountSyOut);
    event Redeem(address indexed caller, address indexed receiver, address indexed tokenOut, uint256 amountSyToRedeem, uint256 amountTokenOut);

    address public immutable yieldToken;

    constructor(string memory name_, string memory symbol_, address underlying) ERC20(name_, symbol_, ERC20(underlying).decimals()) {
        yieldToken = underlying;
    }

    function exchangeRate() external pure returns (uint256) {
        return 1e18;
    }

    function getTokensIn() external view returns (address[] memory res) {
        res = new address[](1);
        res[0] = yieldToken;
    }

    function getTokensOut() external view returns (address[] memory res) {
        res = new address[](1);
        res[0] = yieldToken;
    }

    function isValidTokenIn(address token) external view returns (bool) {
        return token == yieldToken;
    }

    function isValidTokenOut(address token) external view returns (bool) {
        return token == yieldToken;
    }

    function previewDeposit(address tokenIn, uint256 amountTokenToDeposit) external view returns (uint256) {
        require(tokenIn == yieldToken, "SYInvalidTokenIn");
        return amountTokenToDeposit;
    }

    function previewRedeem(address tokenOut, uint256 amountSharesToRedeem) external view returns (uint256) {
        require(tokenOut == yieldToken, "SYInvalidTokenOut");
        return amountSharesToRedeem;
    }

    function deposit(address receiver, address tokenIn, uint256 amountTokenToDeposit, uint256 minSharesOut) external payable returns (uint256) {
        require(msg.value == 0, "SYInvalidTokenIn");
        require(tokenIn == yieldToken, "SYInvalidTokenIn");
        require(amountTokenToDeposit != 0, "SYZeroDeposit");
        require(amountTokenToDeposit >= minSharesOut, "SYInsufficientSharesOut");
        require(IERC20(yieldToken).transferFrom(msg.sender, address(this), amountTokenToDeposit), "SYTransferFailed");
        _mint(receiver, amountTokenToDeposit);
        emit Deposit(msg.sender, receiver, tokenIn, amountTokenToDeposit, amountTokenToDeposit);
        return amountTokenToDeposit;
    }

    function redeem(address receiver, uint256 amountSharesToRedeem, address tokenOut, uint256 minTokenOut, bool burnFromInternalBalance) external returns (uint256) {
        require(tokenOut == yieldToken, "SYInvalidTokenOut");
        require(amountSharesToRedeem != 0, "SYZeroRedeem");
        require(amountSharesToRedeem >= minTokenOut, "SYInsufficientTokenOut");
        _burn(burnFromInternalBalance ? address(this) : msg.sender, amountSharesToRedeem);
        require(IERC20(yieldToken).transfer(receiver, amountSharesToRedeem), "SYTransferFailed");
        emit Redeem(msg.sender, receiver, tokenOut, amountSharesToRedeem, amountSharesToRedeem);
        return amountSharesToRedeem;
    }
}

/// @notice Pendle's principal token: minted and burnt only by its YT.
contract PendlePrincipalToken is ERC20 {
    address public immutable SY;
    address public immutable factory;
    uint256 public immutable expiry;
    address public YT;

    constructor(address sy, string memory name_, string memory symbol_, uint256 expiry_) ERC20(name_, symbol_, ERC20(sy).decimals()) {
        SY = sy;
        factory = msg.sender;
        expiry = expiry_;
    }

    function initialize(address yt) external {
        require(msg.sender == factory && YT == address(0), "OnlyFactory");
        YT = yt;
    }

    function isExpired() public view returns (bool) {
        return block.timestamp >= expiry;
    }

    function mintByYT(address to, uint256 amount) external {
        require(msg.sender == YT, "OnlyYT");
        _mint(to, amount);
    }

    function burnByYT(address from, uint256 amount) external {
        require(msg.sender == YT, "OnlyYT");
        _burn(from, amount);
    }
}

/// @notice Pendle's yield token: mints PT and YT from SY sent to it beforehand and redeems PT (with
/// YT before expiry) sent to it beforehand. The SY has a constant exchange rate, so a YT accrues no
/// interest here.
contract PendleYieldToken is ERC20 {
    event Mint(address indexed caller, address indexed receiverPT, address indexed receiverYT, uint256 amountSyToMint, uint256 amountPYOut);
    event Burn(address indexed caller, address indexed receiver, uint256 amountPYToRedeem, uint256 amountSyOut);

    address public immutable SY;
    address public immutable PT;
    uint256 public immutable expiry;
    uint256 public syReserve;

    constructor(address sy, address pt, string memory name_, string memory symbol_, uint256 expiry_) ERC20(name_, symbol_, ERC20(sy).decimals()) {
        SY = sy;
        PT = pt;
        expiry = expiry_;
    }

    function isExpired() public view returns (bool) {
        return block.timestamp >= expiry;
    }

    function pyIndexCurrent() external pure returns (uint256) {
        return 1e18;
    }

    function mintPY(address receiverPT, address receiverYT) external returns (uint256 amountPYOut) {
        require(!isExpired(), "YCExpired");
        uint256 balance = IERC20(SY).balanceOf(address(this));
        amountPYOut = balance - syReserve;
        require(amountPYOut != 0, "YCNoFloatingSy");
        syReserve = balance;
        PendlePrincipalToken(PT).mintByYT(receiverPT, amountPYOut);
        _mint(receiverYT, amountPYOut);
        emit Mint(msg.sender, receiverPT, receiverYT, amountPYOut, amountPYOut);
    }

    function redeemPY(address receiver) external returns (uint256 amountSyOut) {
        uint256 pt = IERC20(PT).balanceOf(address(this));
        if (isExpired()) {
            amountSyOut = pt;
        } else {
            uint256 yt = balanceOf[address(this)];
            amountSyOut = pt < yt ? pt : yt;
            _burn(address(this), amountSyOut);
        }
        require(amountSyOut != 0, "YCNoFloatingPY");
        PendlePrincipalToken(PT).burnByYT(address(this), amountSyOut);
        syReserve -= amountSyOut;
        require(IERC20(SY).transfer(receiver, amountSyOut), "SYTransferFailed");
        emit Burn(msg.sender, receiver, amountSyOut, amountSyOut);
    }
}

/// @notice A PT/SY market that trades at its implied rate: a PT buys
/// exp(-lnImpliedRate * timeToExpiry / 365 days) SY, with no fee and no curve (the rate moves only
/// when the deployer sets it). Trades pay out of the market's reserves, paid in beforehand.
contract PendleMarket {
    event Swap(address indexed caller, address indexed receiver, int256 netPtOut, int256 netSyOut, uint256 netSyFee, uint256 netSyToReserve);

    uint256 internal constant YEAR = 365 days;
    address public immutable SY;
    address public immutable PT;
    address public immutable YT;
    uint256 public immutable expiry;
    address public immutable owner;
    int128 internal totalPt;
    int128 internal totalSy;
    uint96 internal lnImpliedRate;

    constructor(address pt, uint96 lnImpliedRate_) {
        PT = pt;
        SY = PendlePrincipalToken(pt).SY();
        YT = PendlePrincipalToken(pt).YT();
        expiry = PendlePrincipalToken(pt).expiry();
        owner = msg.sender;
        lnImpliedRate = lnImpliedRate_;
    }

    function readTokens() external view returns (address _SY, address _PT, address _YT) {
        return (SY, PT, YT);
    }

    function isExpired() public view returns (bool) {
        return block.timestamp >= expiry;
    }

    function _storage()
        external
        view
        returns (int128, int128, uint96 lastLnImpliedRate, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext)
    {
        return (totalPt, totalSy, lnImpliedRate, 0, 1, 1);
    }

    /// @notice Sets the implied rate (ln(1 + APY), 18 decimals) and syncs the reserves to the balances.
    function setLnImpliedRate(uint96 rate) external {
        require(msg.sender == owner, "OnlyOwner");
        lnImpliedRate = rate;
        _sync();
    }

    function sync() external {
        _sync();
    }

    /// @notice SY per PT, 18 decimals: 1e18 at and after expiry.
    function ptToSyRate() public view returns (uint256) {
        if (isExpired()) return 1e18;
        uint256 x = (uint256(lnImpliedRate) * (expiry - block.timestamp)) / YEAR;
        return 1e36 / _exp(x);
    }

    function swapExactPtForSy(address receiver, uint256 exactPtIn, bytes calldata /* data: no callback */) external returns (uint256 netSyOut, uint256 netSyFee) {
        require(!isExpired(), "MarketExpired");
        netSyFee = 0;
        require(exactPtIn != 0, "MarketZeroAmountsInput");
        require(IERC20(PT).balanceOf(address(this)) >= uint256(int256(totalPt)) + exactPtIn, "MarketInsufficientPtReceived");
        netSyOut = (exactPtIn * ptToSyRate()) / 1e18;
        require(netSyOut != 0 && netSyOut <= uint256(int256(totalSy)), "MarketInsufficientSyForTrade");
        require(IERC20(SY).transfer(receiver, netSyOut), "SYTransferFailed");
        _sync();
        emit Swap(msg.sender, receiver, -int256(exactPtIn), int256(netSyOut), 0, 0);
    }

    function swapSyForExactPt(address receiver, uint256 exactPtOut, bytes calldata) external returns (uint256 netSyIn, uint256 netSyFee) {
        require(!isExpired(), "MarketExpired");
        netSyFee = 0;
        require(exactPtOut != 0, "MarketZeroAmountsOutput");
        require(exactPtOut <= uint256(int256(totalPt)), "MarketInsufficientPtForTrade");
        netSyIn = _ceilDiv(exactPtOut * ptToSyRate(), 1e18);
        require(IERC20(SY).balanceOf(address(this)) >= uint256(int256(totalSy)) + netSyIn, "MarketInsufficientSyReceived");
        require(IERC20(PT).transfer(receiver, exactPtOut), "PTTransferFailed");
        _sync();
        emit Swap(msg.sender, receiver, int256(exactPtOut), -int256(netSyIn), 0, 0);
    }

    function _sync() internal {
        totalPt = int128(int256(IERC20(PT).balanceOf(address(this))));
        totalSy = int128(int256(IERC20(SY).balanceOf(address(this))));
    }

    function _ceilDiv(uint256 a, uint256 b) internal pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }

    /// @notice e^x for x in 18 decimals, 0 <= x <= 4e18, by its Taylor series.
    function _exp(uint256 x) internal pure returns (uint256 sum) {
        require(x <= 4e18, "MarketRateTooHigh");
        uint256 term = 1e18;
        sum = 1e18;
        for (uint256 i = 1; i < 40 && term != 0; i++) {
            term = (term * x) / (i * 1e18);
            sum += term;
        }
    }
}

/// @notice Pendle's router V4, reduced to PT trades against the market and PT/YT redemption. Token
/// input/output must be the SY's own underlying (no aggregator swap: pendleSwap must be zero);
/// ApproxParams and LimitOrderData are accepted and ignored (no limit orders).
contract PendleRouter {
    event SwapPtAndSy(address indexed caller, address indexed market, address indexed receiver, int256 netPtToAccount, int256 netSyToAccount);
    event RedeemPyToSy(address indexed caller, address indexed receiver, address indexed YT, uint256 netPyIn, uint256 netSyOut);

    function swapExactSyForPt(address receiver, address market, uint256 exactSyIn, uint256 minPtOut, ApproxParams calldata, LimitOrderData calldata)
        external
        returns (uint256 netPtOut, uint256 netSyFee)
    {
        netSyFee = 0;
        (address sy,,) = PendleMarket(market).readTokens();
        require(IERC20(sy).transferFrom(msg.sender, market, exactSyIn), "SYTransferFailed");
        netPtOut = _buyPt(receiver, market, exactSyIn, minPtOut);
        emit SwapPtAndSy(msg.sender, market, receiver, int256(netPtOut), -int256(exactSyIn));
    }

    function swapExactTokenForPt(address receiver, address market, uint256 minPtOut, ApproxParams calldata, TokenInput calldata input, LimitOrderData calldata)
        external
        payable
        returns (uint256 netPtOut, uint256 netSyFee, uint256 netSyInterm)
    {
        netSyFee = 0;
        require(msg.value == 0 && input.pendleSwap == address(0) && input.tokenIn == input.tokenMintSy, "RouterUnsupportedSwap");
        (address sy,,) = PendleMarket(market).readTokens();
        require(IERC20(input.tokenIn).transferFrom(msg.sender, address(this), input.netTokenIn), "TokenTransferFailed");
        IERC20(input.tokenIn).approve(sy, input.netTokenIn);
        netSyInterm = PendleSY(sy).deposit(market, input.tokenIn, input.netTokenIn, 0);
        netPtOut = _buyPt(receiver, market, netSyInterm, minPtOut);
        emit SwapPtAndSy(msg.sender, market, receiver, int256(netPtOut), -int256(netSyInterm));
    }

    function swapExactPtForSy(address receiver, address market, uint256 exactPtIn, uint256 minSyOut, LimitOrderData calldata)
        external
        returns (uint256 netSyOut, uint256 netSyFee)
    {
        (, address pt,) = PendleMarket(market).readTokens();
        require(IERC20(pt).transferFrom(msg.sender, market, exactPtIn), "PTTransferFailed");
        (netSyOut, netSyFee) = PendleMarket(market).swapExactPtForSy(receiver, exactPtIn, "");
        require(netSyOut >= minSyOut, "RouterInsufficientSyOut");
        emit SwapPtAndSy(msg.sender, market, receiver, -int256(exactPtIn), int256(netSyOut));
    }

    function swapExactPtForToken(address receiver, address market, uint256 exactPtIn, TokenOutput calldata output, LimitOrderData calldata)
        external
        returns (uint256 netTokenOut, uint256 netSyFee, uint256 netSyInterm)
    {
        require(output.pendleSwap == address(0) && output.tokenOut == output.tokenRedeemSy, "RouterUnsupportedSwap");
        (address sy, address pt,) = PendleMarket(market).readTokens();
        require(IERC20(pt).transferFrom(msg.sender, market, exactPtIn), "PTTransferFailed");
        (netSyInterm, netSyFee) = PendleMarket(market).swapExactPtForSy(sy, exactPtIn, "");
        netTokenOut = PendleSY(sy).redeem(receiver, netSyInterm, output.tokenOut, output.minTokenOut, true);
        emit SwapPtAndSy(msg.sender, market, receiver, -int256(exactPtIn), int256(netSyInterm));
    }

    function redeemPyToSy(address receiver, address YT, uint256 netPyIn, uint256 minSyOut) external returns (uint256 netSyOut) {
        netSyOut = _redeemPy(YT, netPyIn, receiver);
        require(netSyOut >= minSyOut, "RouterInsufficientSyOut");
        emit RedeemPyToSy(msg.sender, receiver, YT, netPyIn, netSyOut);
    }

    function redeemPyToToken(address receiver, address YT, uint256 netPyIn, TokenOutput calldata output)
        external
        returns (uint256 netTokenOut, uint256 netSyInterm)
    {
        require(output.pendleSwap == address(0) && output.tokenOut == output.tokenRedeemSy, "RouterUnsupportedSwap");
        address sy = PendleYieldToken(YT).SY();
        netSyInterm = _redeemPy(YT, netPyIn, sy);
        netTokenOut = PendleSY(sy).redeem(receiver, netSyInterm, output.tokenOut, output.minTokenOut, true);
        emit RedeemPyToSy(msg.sender, receiver, YT, netPyIn, netSyInterm);
    }

    function _buyPt(address receiver, address market, uint256 syIn, uint256 minPtOut) internal returns (uint256 netPtOut) {
        netPtOut = (syIn * 1e18) / PendleMarket(market).ptToSyRate();
        // Round down until the market's own ceiling of the price fits the SY paid.
        while (netPtOut != 0 && ((netPtOut * PendleMarket(market).ptToSyRate()) + 1e18 - 1) / 1e18 > syIn) netPtOut--;
        require(netPtOut >= minPtOut, "RouterInsufficientPtOut");
        PendleMarket(market).swapSyForExactPt(receiver, netPtOut, "");
    }

    function _redeemPy(address YT, uint256 netPyIn, address receiver) internal returns (uint256) {
        PendleYieldToken yt = PendleYieldToken(YT);
        require(IERC20(yt.PT()).transferFrom(msg.sender, YT, netPyIn), "PTTransferFailed");
        if (!yt.isExpired()) require(yt.transferFrom(msg.sender, YT, netPyIn), "YTTransferFailed");
        return yt.redeemPY(receiver);
    }
}
