// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC4626Base} from "./ERC4626Base.sol";
import {IERC20, SafeTransfer} from "./IERC20.sol";

interface IStrategy4626 {
    function asset() external view returns (address);
    function deposit(uint256 assets, address receiver) external returns (uint256);
    function withdraw(uint256 assets, address receiver, address owner) external returns (uint256);
    function convertToAssets(uint256 shares) external view returns (uint256);
    function maxWithdraw(address owner) external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
}

/// @title YearnV3Vault
/// @notice A Yearn V3 allocator vault's external interface (VaultV3's getters and the calls an
/// allocator makes): an ERC-4626 vault whose assets are idle in it (totalIdle) or lent to ERC-4626
/// strategies (totalDebt), with pricePerShare, deposit_limit, strategies(address) as
/// (activation, last_report, current_debt, max_debt), get_default_queue, apiVersion ("3.0.2"),
/// isShutdown, profitMaxUnlockTime, add_strategy, update_max_debt_for_strategy, update_debt,
/// process_report and set_deposit_limit, with VaultV3's events for them. The deployer holds every
/// role. A withdrawal short of idle assets pulls from the default queue's strategies in order.
/// Simplifications: a reported gain counts at once (no profit locking: profitMaxUnlockTime is 0),
/// no fees, accountant, loss handling, minimum idle, queue editing, shutdown or role manager.
contract YearnV3Vault is ERC4626Base {
    struct StrategyParams {
        uint256 activation;
        uint256 last_report;
        uint256 current_debt;
        uint256 max_debt;
    }

    event StrategyChanged(address indexed strategy, uint256 indexed change_type);
    event StrategyReported(
        address indexed strategy,
        uint256 gain,
        uint256 loss,
        uint256 current_debt,
        uint256 protocol_fees,
        uint256 total_fees,
        uint256 total_refunds
    );
    event DebtUpdated(address indexed strategy, uint256 current_debt, uint256 new_debt);
    event UpdatedMaxDebtForStrategy(address indexed sender, address indexed strategy, uint256 new_debt);
    event UpdateDepositLimit(uint256 deposit_limit);

    uint256 private constant ADDED = 1;

    address public immutable role_manager;
    uint256 public totalIdle;
    uint256 public totalDebt;
    uint256 public deposit_limit;
    uint256 public constant profitMaxUnlockTime = 0;
    bool public constant isShutdown = false;
    mapping(address => StrategyParams) public strategies;
    address[] private defaultQueue;

    constructor(address asset_, string memory name_, string memory symbol_, uint256 depositLimit)
        ERC4626Base(asset_, name_, symbol_)
    {
        role_manager = msg.sender;
        deposit_limit = depositLimit;
    }

    modifier onlyManager() {
        require(msg.sender == role_manager, "not allowed");
        _;
    }

    function apiVersion() external pure returns (string memory) {
        return "3.0.2";
    }

    function pricePerShare() external view returns (uint256) {
        return convertToAssets(10 ** decimals);
    }

    function get_default_queue() external view returns (address[] memory) {
        return defaultQueue;
    }

    function totalAssets() public view override returns (uint256) {
        return totalIdle + totalDebt;
    }

    function maxDeposit(address) public view override returns (uint256) {
        uint256 total = totalAssets();
        return total >= deposit_limit ? 0 : deposit_limit - total;
    }

    function maxWithdraw(address owner_) public view override returns (uint256) {
        uint256 owned = previewRedeem(balanceOf[owner_]);
        uint256 available = totalIdle;
        for (uint256 i; i < defaultQueue.length; i++) {
            address s = defaultQueue[i];
            uint256 free = IStrategy4626(s).maxWithdraw(address(this));
            uint256 debt = strategies[s].current_debt;
            available += free < debt ? free : debt;
        }
        return owned < available ? owned : available;
    }

    function maxRedeem(address owner_) public view override returns (uint256) {
        uint256 m = maxWithdraw(owner_);
        uint256 b = balanceOf[owner_];
        if (m == previewRedeem(b)) return b;
        uint256 s = convertToShares(m);
        return s < b ? s : b;
    }

    function set_deposit_limit(uint256 depositLimit) external onlyManager {
        deposit_limit = depositLimit;
        emit UpdateDepositLimit(depositLimit);
    }

    function add_strategy(address strategy) external onlyManager {
        require(strategy != address(0) && IStrategy4626(strategy).asset() == asset, "invalid asset");
        require(strategies[strategy].activation == 0, "strategy already active");
        strategies[strategy] = StrategyParams(block.timestamp, block.timestamp, 0, 0);
        defaultQueue.push(strategy);
        emit StrategyChanged(strategy, ADDED);
    }

    function update_max_debt_for_strategy(address strategy, uint256 newMaxDebt) external onlyManager {
        require(strategies[strategy].activation != 0, "inactive strategy");
        strategies[strategy].max_debt = newMaxDebt;
        emit UpdatedMaxDebtForStrategy(msg.sender, strategy, newMaxDebt);
    }

    /// @notice Moves idle assets into strategy, or back from it, until its debt is targetDebt
    /// (capped by max_debt and by the idle assets).
    function update_debt(address strategy, uint256 targetDebt) external onlyManager returns (uint256) {
        StrategyParams storage p = strategies[strategy];
        require(p.activation != 0, "inactive strategy");
        if (targetDebt > p.max_debt) targetDebt = p.max_debt;
        uint256 current = p.current_debt;
        if (targetDebt > current) {
            uint256 add = targetDebt - current;
            if (add > totalIdle) add = totalIdle;
            require(add > 0, "no funds to deposit");
            IERC20(asset).approve(strategy, add);
            IStrategy4626(strategy).deposit(add, address(this));
            totalIdle -= add;
            totalDebt += add;
            p.current_debt = current + add;
        } else if (targetDebt < current) {
            _free(strategy, current - targetDebt);
        }
        emit DebtUpdated(strategy, current, p.current_debt);
        return p.current_debt;
    }

    /// @notice Books the strategy's gain or loss: its debt becomes what the vault's strategy shares
    /// are worth now.
    function process_report(address strategy) external onlyManager returns (uint256 gain, uint256 loss) {
        StrategyParams storage p = strategies[strategy];
        require(p.activation != 0, "inactive strategy");
        uint256 worth = IStrategy4626(strategy).convertToAssets(IStrategy4626(strategy).balanceOf(address(this)));
        uint256 debt = p.current_debt;
        if (worth > debt) {
            gain = worth - debt;
            totalDebt += gain;
        } else {
            loss = debt - worth;
            totalDebt -= loss;
        }
        p.current_debt = worth;
        p.last_report = block.timestamp;
        emit StrategyReported(strategy, gain, loss, worth, 0, 0, 0);
    }

    function _afterDeposit(uint256 assets) internal override {
        totalIdle += assets;
    }

    function _beforeWithdraw(uint256 assets) internal override {
        for (uint256 i; i < defaultQueue.length && totalIdle < assets; i++) {
            address s = defaultQueue[i];
            uint256 need = assets - totalIdle;
            uint256 debt = strategies[s].current_debt;
            uint256 free = IStrategy4626(s).maxWithdraw(address(this));
            if (free > debt) free = debt;
            if (need > free) need = free;
            if (need > 0) _free(s, need);
        }
        require(totalIdle >= assets, "insufficient assets in vault");
        totalIdle -= assets;
    }

    function _free(address strategy, uint256 amount) private {
        StrategyParams storage p = strategies[strategy];
        IStrategy4626(strategy).withdraw(amount, address(this), address(this));
        p.current_debt -= amount;
        totalDebt -= amount;
        totalIdle += amount;
    }
}
