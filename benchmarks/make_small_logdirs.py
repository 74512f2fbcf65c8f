"""Generate the small logdirs of the first-use benchmark, with the real writers.

- ``tiny``: one run, 20 ``add_scalar`` calls with ``torch.utils.tensorboard`` (~4 KB).
- ``small3``: three runs of ``torch.utils.tensorboard``: 4 tags x 500 steps and a
  histogram every 50 steps (~0.6 MB).
- ``lightning``: three versions of a Lightning ``TensorBoardLogger`` run (per-step
  loss, per-epoch validation metrics, ``save_hyperparameters()``, a weight histogram
  per epoch; ~2.4 MB), as a Lightning user's logdir looks.

Usage::

    python benchmarks/make_small_logdirs.py            # all three into benchmarks/data/
    python benchmarks/make_small_logdirs.py --only tiny,small3
"""

from __future__ import annotations

import argparse
import os
import shutil
import warnings
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "data"
NAMES = ("tiny", "small3", "lightning")


def write_tiny(out: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    with SummaryWriter(str(out / "run")) as writer:
        for step in range(20):
            writer.add_scalar("loss", 1.0 / (step + 1), step)


def write_small3(out: Path) -> None:
    import numpy as np
    from torch.utils.tensorboard import SummaryWriter

    rng = np.random.default_rng(0)
    for seed in range(3):
        with SummaryWriter(str(out / f"seed={seed}")) as writer:
            for step in range(500):
                writer.add_scalar("train/loss", float(rng.random()) / (step + 1), step)
                writer.add_scalar("train/acc", step / 500, step)
                writer.add_scalar("val/loss", float(rng.random()), step)
                writer.add_scalar("lr", 0.1 * 0.99**step, step)
                if step % 50 == 0:
                    writer.add_histogram("weights", rng.normal(size=1000), step)


def write_lightning(out: Path, versions: int = 3, epochs: int = 20, batches: int = 205) -> None:
    import lightning
    import torch
    from lightning.pytorch.loggers import TensorBoardLogger

    class Classifier(lightning.LightningModule):
        def __init__(self, lr: float = 0.05, hidden: int = 16) -> None:
            super().__init__()
            self.save_hyperparameters()
            self.net = torch.nn.Sequential(
                torch.nn.Linear(8, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 2)
            )

        def forward(self, x: Any) -> Any:
            return self.net(x)

        def training_step(self, batch: Any, _index: int) -> Any:
            x, y = batch
            loss = torch.nn.functional.cross_entropy(self(x), y)
            self.log("train/loss", loss)
            self.log("train/lr", self.hparams.lr)  # type: ignore[attr-defined]
            return loss

        def validation_step(self, batch: Any, _index: int) -> None:
            x, y = batch
            logits = self(x)
            self.log("val/loss", torch.nn.functional.cross_entropy(logits, y))
            self.log("val/acc", (logits.argmax(1) == y).float().mean())

        def on_train_epoch_end(self) -> None:
            writer = self.logger.experiment  # type: ignore[union-attr]
            writer.add_histogram("net/0/weight", self.net[0].weight.detach(), self.global_step)

        def configure_optimizers(self) -> Any:
            return torch.optim.SGD(self.parameters(), lr=self.hparams.lr)  # type: ignore[attr-defined]

    torch.manual_seed(0)
    x = torch.randn(batches * 4, 8)
    y = (x[:, 0] > 0).long()
    data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=4)
    for version in range(versions):
        logger = TensorBoardLogger(str(out), name="lightning_logs", version=version)
        trainer = lightning.Trainer(
            max_epochs=epochs,
            accelerator="cpu",
            devices=1,
            logger=logger,
            log_every_n_steps=1,
            enable_checkpointing=False,
            enable_progress_bar=False,
            enable_model_summary=False,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            trainer.fit(Classifier(lr=0.05 * (version + 1)), data, data)
        logger.finalize("success")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=",".join(NAMES))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    writers = {"tiny": write_tiny, "small3": write_small3, "lightning": write_lightning}
    for name in args.only.split(","):
        target = args.out / name
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        writers[name](target)
        size = sum(p.stat().st_size for p in target.rglob("*tfevents*"))
        print(
            f"{target}: {size / 1e6:.2f} MB of event files "
            f"in {len({p.parent for p in target.rglob('*tfevents*')})} runs"
        )
    os.sync()


if __name__ == "__main__":
    main()
