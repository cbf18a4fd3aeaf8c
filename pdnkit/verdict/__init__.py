"""The verdict on a clean game (:mod:`pdnkit.verdict.facts`) and the variants' start data it
reads (:mod:`pdnkit.verdict.startdata`, generated): below the validator and the command line,
so that both the quick ``validate`` (:mod:`pdnkit.lean.verdict`) and the validator's batch of
clean games (:mod:`pdnkit.validation.cleanbatch`) judge a game the same way. Importing the
package imports nothing.
"""
